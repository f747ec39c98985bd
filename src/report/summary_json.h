#pragma once
// The one `summary` object of every command's JSON document (doctor, cluster, triage, audit, env
// lint, compat, topo, timeline, model --judge, report): the same keys everywhere, so a CI gate or
// a dashboard reads every ncdx result the same way.
//   {"status": "PASS|INFO|WARN|FAIL", "pass": N, "info": N, "warn": N, "fail": N, "skip": N}
// `status` is the tally's worst outcome (core::Tally::worst: never SKIP, which never ranks above
// PASS), so exit_code_for(status) is the command's exit code wherever that is the worst item's.
// What a command counts (its checks, rows, findings…) is the caller's; command-specific numbers
// live beside `summary`, never inside it.
#include <nlohmann/json.hpp>

#include "core/outcome.h"

namespace ncdx::report {

nlohmann::json summary_json(const core::Tally& t);

}  // namespace ncdx::report
