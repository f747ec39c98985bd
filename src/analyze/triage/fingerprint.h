#pragma once
// PyTorch's collective-mismatch report (TORCH_DISTRIBUTED_DEBUG=DETAIL, ProcessGroupWrapper):
// "Detected mismatch between collectives on ranks. Rank 0 is running collective:
// CollectiveFingerPrint(SequenceNumber=1, OpType=ALLREDUCE, TensorShape=[4096], TensorDtypes=Float,
// ...), but Rank 2 is running collective: CollectiveFingerPrint(...)". Every rank prints its own
// and one other's; the rank whose fingerprint differs from the majority's issued the odd call.
#include <map>
#include <string_view>

#include "analyze/triage/model.h"

namespace ncdx::analyze {

// Adds the fingerprints named on `text` (each "Rank N is running collective: CollectiveFingerPrint(
// ...)") to `out`, first seen wins, at most `max_ranks` entries. Returns whether any was found.
bool read_fingerprints(std::string_view text, std::map<int, Fingerprint>& out, std::size_t max_ranks = 100000);

}  // namespace ncdx::analyze
