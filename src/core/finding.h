#pragma once
// The Finding contract of docs/OUTPUT.md: every command that judges something emits these, and every
// reporter renders them. Unknown values are std::nullopt and serialise as JSON null, never 0.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace ncdx::core {

enum class Severity { info = 0, warn = 1, error = 2, critical = 3 };
const char* to_string(Severity s);
std::optional<Severity> parse_severity(std::string_view s);

// Failure classes of docs/OUTPUT.md; the class names the root cause, not the symptom.
inline constexpr const char* kFailureClasses[] = {
    "timeout-hang", "cuda-hardware", "data-mismatch", "network-ib", "network-socket", "shm-ipc",
    "p2p-topology", "version-mismatch", "oom", "config-invalid", "other", "none"};
bool is_failure_class(std::string_view s);

struct Evidence {
  std::string file;               // as given by the user
  std::optional<long long> line;  // 1-based
  std::optional<int> rank;
  std::optional<std::string> host;
  std::optional<std::string> time;  // as printed in the log
  std::string text;
};

struct Fix {
  std::string action;                   // what to do, one sentence
  std::optional<std::string> env;       // "NCCL_IB_GID_INDEX=3"
  std::optional<std::string> command;   // a shell command
  std::optional<std::string> applies;   // version range / condition
  std::optional<std::string> doc;       // link or reference
};

struct Culprit {
  std::vector<int> ranks;
  std::vector<std::string> hosts;
  std::vector<std::string> devices;
  std::optional<std::string> component;
};

struct Finding {
  std::string id;
  std::string klass;  // failure class (triage) or category (doctor/audit)
  Severity severity = Severity::info;
  std::string title;
  std::string summary;
  Culprit culprit;
  std::vector<Evidence> evidence;
  std::vector<Fix> fixes;
  double confidence = 1.0;
};

nlohmann::json to_json(const Evidence& e);
nlohmann::json to_json(const Fix& f);
nlohmann::json to_json(const Culprit& c);
nlohmann::json to_json(const Finding& f);

// Exit code for a set of findings: 0 none above info, 1 warnings only, 2 error or critical.
int exit_code_for(const std::vector<Finding>& findings);

}  // namespace ncdx::core
