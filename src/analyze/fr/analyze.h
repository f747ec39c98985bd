#pragma once
// Flight Recorder analysis: the checks PyTorch's fr_trace/torchfrtrace makes (pytorch/pytorch
// torch/distributed/flight_recorder), on the dumps of all ranks, as ncdx Findings.
//
// API (what `ncdx triage --fr DIR` calls):
//
//   auto dump = analyze::read_fr_path(dir);            // fr/reader.h: file, directory or prefix
//   if (!dump) return dump.status();                   // bad_input → exit 65, not_found → 66
//     (FrReadLimits::skip_bad_files = true reads past one truncated/refused rank with a warning)
//   analyze::FrAnalysis a = analyze::analyze_fr(*dump);
//   a.findings   → std::vector<core::Finding>, sorted by severity. Ids and classes:
//                  timeout-hang: fr.missing-ranks (ranks that never joined the collective the
//                  others wait in; culprits = those ranks), fr.missing-dumps (all dumped ranks
//                  wait; culprits = ranks without a dump), fr.stuck-collective (every rank entered,
//                  none finished; no culprit rank), fr.state-mismatch, fr.p2p-pending (culprit =
//                  the peer that never posted its send/recv), fr.single-rank-waiting (one dump);
//                  data-mismatch: fr.op-mismatch, fr.size-mismatch, fr.dtype-mismatch (culprits =
//                  the minority ranks); version-mismatch: fr.comm-lib-version-mismatch,
//                  fr.dump-version-mismatch. Culprit ranks are global ranks. Evidence names the
//                  dump file, the rank and the entry (record_id, seq, op, state, sizes, dtypes,
//                  the user's call site when stacks were dumped); line is null (no lines in a pickle).
//   a.groups     → one FrPgSummary per process group: members, last enqueued/completed sequence
//                  id per rank, the first collective not completed by everyone.
//   report::format_fr_summary(a, color) (report/fr_summary.h) → a printable per-group table;
//   analyze::to_json(a).
//
// How ranks are aligned: by (process-group name, collective_seq_id), never by position, because
// each rank's ring buffer may start at a different point. A rank entered sequence s if any of its
// entries for the group has a sequence >= s or its pg_status last_enqueued_collective >= s (ids
// only grow); it completed s if an entry >= s is completed or last_completed_collective >= s
// (work on one group's stream completes in order). A rank with no dump is "unknown", never
// "missing".
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyze/fr/reader.h"
#include "core/finding.h"

namespace ncdx::analyze {

struct FrRankProgress {
  int rank = 0;
  bool has_dump = false;
  std::optional<long long> last_enqueued, last_completed;  // collective sequence ids
  std::optional<long long> first_seq_in_buffer;           // oldest entry still in the ring buffer
  std::optional<std::string> last_op, last_state;         // newest entry of this group
};

struct FrPgSummary {
  std::string name;                     // process-group name (pg_config key / process_group[0])
  std::optional<std::string> desc;      // "default_pg", "TENSOR_MODEL_PARALLEL_GROUP" …
  std::vector<int> members;             // from pg_config ranks, else the ranks that mention it
  bool members_from_config = false;
  std::vector<FrRankProgress> ranks;    // one per member
  std::optional<long long> first_unfinished_seq;  // first seq not completed by every dumped member
  std::optional<std::string> first_unfinished_op;
  std::string status;                   // one line: "ok", "rank 2 never joined all_reduce seq 17" …
};

struct FrAnalysis {
  std::vector<core::Finding> findings;
  std::vector<FrPgSummary> groups;
  std::size_t dump_count = 0;
  std::vector<int> ranks_with_dump;
  std::vector<int> ranks_without_dump;  // members of some group with no dump file
  std::vector<std::string> notes;       // reader warnings and analysis caveats
};

FrAnalysis analyze_fr(const FrDump& dump);
nlohmann::json to_json(const FrAnalysis& a);
// "0-3,5,7,8": core::format_ranges with a run of two written as a pair (FR texts and goldens).
std::string format_rank_list(std::vector<int> ranks);

}  // namespace ncdx::analyze
