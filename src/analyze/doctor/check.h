#pragma once
// The doctor check registry (docs/CHECKS.md is generated from it): each check has a stable id,
// a one-line title, a category, a cost, when it applies, and the fact it rests on. Checks are
// pure functions of the Inventory, so they run the same live, on a rooted tree, a bundle or a
// snapshot.
#include <string>
#include <vector>

#include "core/outcome.h"
#include "probe/inventory.h"

namespace ncdx::analyze {


struct CheckResult {
  core::Outcome status = core::Outcome::skip;  // core/outcome.h
  std::string evidence;  // what was seen (for SKIP: why it did not run)
  std::string fix;       // what to do (empty on PASS/SKIP)
};

inline CheckResult pass(std::string ev) { return {core::Outcome::pass, std::move(ev), {}}; }
inline CheckResult warn(std::string ev, std::string fix) { return {core::Outcome::warn, std::move(ev), std::move(fix)}; }
inline CheckResult fail(std::string ev, std::string fix) { return {core::Outcome::fail, std::move(ev), std::move(fix)}; }
inline CheckResult skip(std::string why) { return {core::Outcome::skip, std::move(why), {}}; }

using CheckFn = CheckResult (*)(const probe::Inventory&);

struct CheckDef {
  const char* id;        // "os.shm_size"
  const char* category;  // "system", "gpu", "nvlink", "pcie", "network", "infiniband", "software", "env", "kernel"
  const char* title;     // one line
  const char* cost;      // "quick" (reads files) or "full" (needs --full)
  const char* applies;   // when the check is meaningful
  const char* fact;      // the reference behind it
  CheckFn run;
};

struct CheckOutcome {
  const CheckDef* def;
  CheckResult result;
};

// Every doctor check, in report order (registered in doctor/registry.cc, one explicit list).
const std::vector<CheckDef>& doctor_checks();
std::vector<CheckOutcome> run_doctor_checks(const probe::Inventory& inv);

}  // namespace ncdx::analyze
