#pragma once
// A composed config is a JSON tree (objects, arrays, typed scalars), addressed by dotted keys the
// way OmegaConf addresses it ("actor_rollout_ref.rollout.n"; a numeric part indexes a list).
#include <nlohmann/json.hpp>

#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ncdx::analyze {

std::vector<std::string> split_key(std::string_view dotted);
// The node at `dotted`, or nullptr when any part is missing.
const nlohmann::json* find_path(const nlohmann::json& root, std::string_view dotted);
nlohmann::json* find_path(nlohmann::json& root, std::string_view dotted);
// Sets the value, creating intermediate objects (replacing non-containers on the way).
void set_path(nlohmann::json& root, std::string_view dotted, nlohmann::json value);
bool erase_path(nlohmann::json& root, std::string_view dotted);
// OmegaConf merge: objects merge key by key, everything else (lists included) replaces.
void merge_into(nlohmann::json& dst, const nlohmann::json& src);
// Leaves as (dotted key, value); lists and empty objects are leaves.
std::vector<std::pair<std::string, nlohmann::json>> flatten(const nlohmann::json& root);
// Value as shown in the audit table: strings bare, everything else as compact JSON.
std::string display(const nlohmann::json& v);

// Typed getters for rules: nullopt when absent, null, "???", an interpolation or the wrong type.
std::optional<long long> get_int(const nlohmann::json& root, std::string_view dotted);
std::optional<double> get_number(const nlohmann::json& root, std::string_view dotted);
std::optional<bool> get_bool(const nlohmann::json& root, std::string_view dotted);
std::optional<std::string> get_string(const nlohmann::json& root, std::string_view dotted);

// While one is alive, every key looked up through find_path (and the getters above) on this thread
// is added to `into`. The audit records which keys its rules read, so a value the script computes at
// run time is a warning only where a verdict depends on it (analyze/audit/audit.cc).
class KeyReads {
 public:
  explicit KeyReads(std::set<std::string>& into);
  ~KeyReads();
  KeyReads(const KeyReads&) = delete;
  KeyReads& operator=(const KeyReads&) = delete;
  // For a rule that judges a key without looking it up (it scans the overrides for it).
  static void note(std::string_view dotted);

 private:
  std::set<std::string>* prev_;
};

}  // namespace ncdx::analyze
