#pragma once
// Reads every input of one `ncdx timeline` run, the files in parallel (issue #16: the per-rank
// traces are independent until the cross-rank analysis). Each file is read into its own TraceSet
// by one worker of a small pool; the sets are merged in input order, so the result — string ids
// included — is the one a sequential read gives, whatever the number of workers.
#include <string>
#include <vector>

#include "analyze/timeline/trace_model.h"
#include "core/result.h"

namespace ncdx::analyze::timeline {

// The workers for `files` inputs when the user asks for `requested` (0: one per hardware thread):
// never more than the files, at least 1.
unsigned timeline_jobs(unsigned requested, std::size_t files);

// Reads `paths` ("-" is stdin) with `jobs` workers (timeline_jobs) and appends them to `out` in
// input order. On failure returns the error of the first failing file in input order (the one a
// sequential read would have stopped at); `out` is then left unspecified. Workers share nothing
// but the index of the next file to take and the index of the first failure seen.
core::Status read_timeline_inputs(const std::vector<std::string>& paths, unsigned jobs, TraceSet& out);

// Appends one file's set to `out`, renumbering its StringTable ids into out's (in the order the
// file interned them, so a merge in input order assigns the ids a shared table would have).
void merge_trace_set(TraceSet&& part, TraceSet& out);

}  // namespace ncdx::analyze::timeline
