#pragma once
// The fault-signature knowledge base (data/signatures.yaml): what a log line means, its failure
// class, the cause and the ordered fixes. Loading compiles every pattern once; matching a line is
// the hot path of `ncdx triage` and must stay cheap for the ~99.9% of lines that match nothing.
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/finding.h"
#include "core/result.h"
#include "core/semver.h"

namespace ncdx::knowledge {

// How a signature relates to the root cause, used by triage's correlation.
enum class Role {
  cause,    // names a root cause by itself (IB completion error, ECC error, posix_fallocate ...)
  symptom,  // an effect others explain (watchdog timeout, "remote process exited", ncclRemoteError)
  context,  // not a failure: facts for correlation (NCCL version line, Init COMPLETE, NET/IB : Using)
};
const char* to_string(Role r);

// Another class for a signature's failure when a second signature reports the same error (on the
// same line or a few lines before or after it in the same file, from the same rank). Example:
// "Bootstrap : no socket interface found" returned as ncclInvalidUsage is NCCL saying the
// interface filter is the caller's configuration error, not a network fault.
// Another class for a hit when the job shows more. Two kinds (signatures.yaml `refine`):
// - `with`: another signature seen near the line (same rank when both are known; triage/scan.cc);
// - `nccl_below` (+ optional `job_has`): the line's captured `nccl_version` (as NCCL or PyTorch
//   prints it) is older than that version, and (when given) some hit of the job has class
//   `job_has` (triage/verdict.cc). `{nccl_version}` in `why` is the version read.
struct Refinement {
  std::string with;            // id of the other signature (empty for a version refinement)
  std::string nccl_below;      // a version: applies below it (as written)
  std::optional<core::Version> below;  // nccl_below parsed at load
  std::string job_has;         // a failure class some hit of the job must have
  std::string klass;           // the class then
  std::string why;             // appended to the cause
  std::size_t with_index = 0;  // index of `with` in SignatureSet::all(), resolved at load
};

// Whether a signature is the launcher's report of a process that exited with an error, and
// whether that report names the rank (signatures.yaml `exit_report: process | rank`).
enum class ExitReport { none, process, rank };

struct Signature {
  std::string id;                     // stable, e.g. "nccl.ib.completion-error"
  std::string klass;                  // failure class (docs/OUTPUT.md)
  core::Severity severity = core::Severity::error;
  Role role = Role::cause;
  int priority = 50;                  // 0..100: strength as a root cause; higher wins a tie
  std::string title;                  // one line
  std::string cause;                  // why it happens (may use {field} placeholders)
  std::vector<std::string> patterns;  // RE2 syntax; any one matching is a hit
  std::vector<core::Fix> fixes;       // ordered
  std::vector<std::string> refs;      // sources
  std::vector<std::string> examples;  // real lines that must match (checked by a unit test)
  std::vector<Refinement> refine;     // checked in order; the first that applies wins
  // The launcher's report that a process exited with an error (mpirun, torchrun): with nothing
  // else naming a cause, triage infers from the job's shape why it exited (triage/fallback.cc).
  // `rank`: the line names the rank that exited, a culprit for a verdict without one (verdict.cc).
  ExitReport exit_report = ExitReport::none;
  // Printed by the launcher, scheduler, shell or kernel about a process (`printed_by: launcher`),
  // not by the rank's own code: it says that a process ended, not why (triage/cascade.cc).
  bool by_launcher = false;
  // The line is the waiting side's own timeout (`waits_for: peer`: a recv/send timeout, the
  // watchdog's collective timeout, a store wait): it says its reporter waited for another process,
  // not what that process did. The reporter is a victim unless it shows a fault of its own
  // (triage/waiter.h).
  bool waits_for_peer = false;
};

struct SignatureMatch {
  std::size_t index;                          // into SignatureSet::all()
  std::map<std::string, std::string> fields;  // named capture groups that matched
};

class SignatureSet {
 public:
  static core::Result<SignatureSet> load_embedded();  // data/signatures.yaml
  static core::Result<SignatureSet> load(std::string_view yaml_text, std::string_view source_name);

  SignatureSet(SignatureSet&&) noexcept;
  SignatureSet& operator=(SignatureSet&&) noexcept;
  ~SignatureSet();

  const std::vector<Signature>& all() const;
  const Signature* find(std::string_view id) const;
  // Appends every signature that matches `line` (in id order) to `out`. Thread-safe.
  // With include_context=false, context signatures (facts, not failures) are skipped before
  // their regex runs: triage extracts those facts itself and most lines of an INFO log are context.
  void match(std::string_view line, std::vector<SignatureMatch>& out, bool include_context = true) const;

  // How the patterns are run (for tests and benchmarks): unfiltered patterns have no literal for
  // the prefilter and run on every line; fast ones use SimplePattern instead of RE2.
  struct Stats {
    std::size_t patterns = 0, unfiltered = 0, fast = 0;
  };
  Stats stats() const;

 private:
  SignatureSet();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// A catch-all: a signature of class other and priority <= 3 that is no context fact (an
// unclassified NCCL WARN, a bare Python exception). It says an error was printed, not which.
inline bool is_catch_all(const Signature& s) { return s.klass == "other" && s.priority <= 3 && s.role != Role::context; }

// The signature's `cause` with each {field} replaced by the matched value ("?" when the field did
// not match), e.g. "IB completion error status 12 (transport retry counter exceeded)".
std::string render_cause(const Signature& sig, const std::map<std::string, std::string>& fields);

}  // namespace ncdx::knowledge
