#pragma once
// The collectives `ncdx bench` runs and nccl-tests' accounting for each of them: how many
// elements go into the send and receive buffers for a given size, where the in-place buffers sit,
// and the algbw/busbw factors. Every number here is nccl-tests' own, so a row of ours and a row of
// nccl-tests for the same size, type and rank count mean the same thing
// (NVIDIA/nccl-tests src/<coll>.cu *GetCollByteCount and *GetBw @ a0b82b2 (2.19.6);
// doc/PERFORMANCE.md).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ncdx::measure {

enum class Collective { allreduce, allgather, reducescatter, broadcast, reduce, alltoall, sendrecv };

const std::vector<Collective>& all_collectives();
std::string_view name_of(Collective c);              // "allreduce"
std::string_view nccl_tests_program(Collective c);   // "all_reduce_perf"
std::optional<Collective> parse_collective(std::string_view s);  // also accepts nccl-tests names
bool has_redop(Collective c);  // the redop column says "none" otherwise
bool has_root(Collective c);   // the root column says -1 otherwise

// nccl-tests' element types (common.cu test_typenames) and their sizes.
enum class DataType { int8, uint8, int32, uint32, int64, uint64, half, float32, float64, bfloat16 };
std::string_view name_of(DataType t);  // nccl-tests' names: "float", "double", "int32", ...
std::size_t size_of(DataType t);
std::optional<DataType> parse_datatype(std::string_view s);  // also "fp32", "float32", "int", "char"

enum class RedOp { sum, prod, max, min, avg };
std::string_view name_of(RedOp o);
std::optional<RedOp> parse_redop(std::string_view s);

// Element counts of one call at `count` elements of `elt_size` bytes over `nranks` ranks (the
// *GetCollByteCount functions): the send and receive buffer lengths, the count passed to the
// library, and the in-place offsets (multiplied by the rank, as nccl-tests' startColl does).
struct CollCounts {
  std::size_t send = 0, recv = 0, param = 0;
  std::size_t send_inplace_offset = 0, recv_inplace_offset = 0;
};
CollCounts coll_counts(Collective c, std::size_t count, std::size_t elt_size, int nranks);

// The size column nccl-tests prints: max(send, recv) bytes.
std::size_t printed_bytes(const CollCounts& k, std::size_t elt_size);

struct Bandwidth {
  double algbw_gbps = 0, busbw_gbps = 0;
};
// *GetBw: algbw from the count passed to the library (times n where nccl-tests does), busbw the
// algbw times the collective's factor.
Bandwidth bandwidth(Collective c, std::size_t param_count, std::size_t elt_size, double seconds, int nranks);
double busbw_factor(Collective c, int nranks);

// The sizes nccl-tests walks from -b to -e: times -f when f > 1, else plus -i.
std::vector<std::size_t> size_sweep(std::size_t min_bytes, std::size_t max_bytes, std::size_t step_factor,
                                    std::size_t step_bytes);
// nccl-tests' parsesize (common.cu): a number with an optional K/M/G suffix (powers of 1024).
std::optional<std::size_t> parse_size(std::string_view s);

}  // namespace ncdx::measure
