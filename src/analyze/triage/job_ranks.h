#pragma once
// The ranks of a job and their hosts as far as the input shows them, and the words verdicts use for
// a set of ranks: shared by the cause-vs-cascade rules (cascade.cc), the waiter rule (waiter.cc) and
// the report readers (ras_report.cc).
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analyze/triage/model.h"

namespace ncdx::analyze {

// "rank 3" / "ranks 0,1,3" (at most 16 listed), as verdicts word them.
std::string rank_words(const std::set<int>& s);

// The ranks of the job as far as the input shows them: every rank that printed a line, every rank
// the launcher reported on, every rank a signature named, and, when the launcher's exit report is
// in the input (it numbers ranks 0..N-1), every rank below the highest one. Never filled in from
// an excerpt's rank numbers or a (sub-)communicator's nranks alone: a rank the input does not show
// to exist cannot be called silent.
std::set<int> job_ranks(const ScanResult& scan, const std::map<int, ProcessFacts>& ranks);

// The hosts of ranks `rs`: each rank's own lines (a host:pid prefix) or, failing that, the host the
// launcher's exit report gives it (torchrun's "host : H" entry, mpirun's "on node H", srun's
// "node3: task 5"). "localhost" names no host. With `all_known`, empty unless every rank's host is
// known: a verdict that names ranks on two hosts must not name only one of them.
std::vector<std::string> hosts_of(const std::set<int>& rs, const ScanResult& scan,
                                  const std::map<int, ProcessFacts>& ranks, bool all_known = false);

}  // namespace ncdx::analyze
