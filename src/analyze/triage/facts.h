#pragma once
// Extracts the structured facts correlation needs (versions, init, network, transports, COLL
// progress, watchdog state) from one line's message. Hand-written scanning gated by cheap
// substring tests: this runs on every line of multi-GB logs.
#include <string_view>

#include "analyze/logs/log_line.h"
#include "analyze/triage/model.h"

namespace ncdx::analyze {

enum class FactKind {
  none,          // no fact: the line may still carry a failure
  fact,          // a fact (version, init, network ...); may still carry a failure
  fixed_format,  // a fixed-format NCCL progress line (COLL opCount, channel/transport setup)
                 // whose printf shape cannot hold a failure: signature matching can skip it
};

// Updates `proc` (the facts of the process that printed the line) and `topo` from `msg`.
FactKind collect_facts(std::string_view msg, ProcessFacts& proc, TopologyFacts& topo);

// Parses "... Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE,
// NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600081 milliseconds ..." and the PG status
// line; exposed for tests.
bool parse_watchdog(std::string_view msg, ProcessFacts& proc);

}  // namespace ncdx::analyze
