#pragma once
// Internal to the FR analysis: every rank's view of one process group, aligned by sequence id
// (see fr/analyze.h for the rules). Not part of the public API.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analyze/fr/reader.h"

namespace ncdx::analyze::fr_detail {

struct RankView {
  int rank = 0;
  const FrRankDump* dump = nullptr;  // null: no dump for this member
  std::map<long long, std::vector<const FrEntry*>> by_seq;  // collectives, by collective_seq_id
  std::vector<const FrEntry*> p2p;                          // point-to-point entries
  std::optional<long long> status_enqueued, status_completed;
  std::optional<long long> max_seq, max_completed;          // from entries
  const FrEntry* newest = nullptr;                          // newest entry of the group

  // Highest sequence id this rank is known to have enqueued / completed (nullopt: unknown).
  std::optional<long long> entered_upto() const;
  std::optional<long long> completed_upto() const;
};

struct PgView {
  std::string name;
  std::optional<std::string> desc;
  std::vector<int> members;      // sorted global ranks
  std::vector<int> group_ranks;  // pg_config order: group rank i is global rank group_ranks[i]
  bool members_from_config = false;
  std::vector<RankView> ranks;  // one per member, in member order
};

bool is_p2p(const FrEntry& e);
// Groups of all dumps, sorted by name (numeric names numerically).
std::vector<PgView> align_groups(const FrDump& dump, std::vector<std::string>& notes);

}  // namespace ncdx::analyze::fr_detail
