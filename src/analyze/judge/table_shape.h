#pragma once
// What nccl-tests' own columns say about the run that printed them, for a table pasted without its
// header: the collective and the rank count, read from the columns each test fills
// (NVIDIA/nccl-tests src/<test>.cu @ v2.19.6): the `redop` it prints ("none" for all_gather,
// broadcast and alltoall, an operation otherwise — sendrecv too), the `root` (-1 unless rooted),
// the `count` (GetCollByteCount's paramcount: size / element size, or that / nranks for
// all_gather, reduce_scatter and alltoall) and the busbw / algbw factor of its GetBw
// (2(n-1)/n, (n-1)/n or 1; reference/nccl_facts.md §5).
#include <optional>
#include <string>

#include "analyze/judge/nccl_tests_parse.h"
#include "model/cost/types.h"

namespace ncdx::analyze::judge {

struct TableShape {
  std::optional<model::cost::Collective> coll;  // when the columns leave a single test
  std::optional<int> nranks;                    // when the factor or the count fixes it
  std::string evidence;                         // the columns read, for the report ("" = nothing read)
};

// From the rows with a count, a known type and an algbw of at least 1 GB/s (printed with two
// decimals, smaller values do not fix the factor). Nothing inferred when the rows disagree.
TableShape table_shape(const NcclTestsRun& run);

}  // namespace ncdx::analyze::judge
