#include "measure/collective/collective.h"

#include <array>
#include <cmath>
#include <cstdlib>
#include <string>

namespace ncdx::measure {

namespace {

struct CollInfo {
  Collective c;
  const char* name;
  const char* program;
  const char* alias;  // nccl-tests' test name without _perf
  bool redop, root;
};
constexpr std::array<CollInfo, 7> kColls{{
    {Collective::allreduce, "allreduce", "all_reduce_perf", "all_reduce", true, false},
    {Collective::allgather, "allgather", "all_gather_perf", "all_gather", false, false},
    {Collective::reducescatter, "reducescatter", "reduce_scatter_perf", "reduce_scatter", true, false},
    {Collective::broadcast, "broadcast", "broadcast_perf", "broadcast", false, true},
    {Collective::reduce, "reduce", "reduce_perf", "reduce", true, true},
    {Collective::alltoall, "alltoall", "alltoall_perf", "alltoall", false, false},
    {Collective::sendrecv, "sendrecv", "sendrecv_perf", "sendrecv", false, false},
}};

const CollInfo& info(Collective c) { return kColls[static_cast<std::size_t>(c)]; }

struct TypeInfo {
  DataType t;
  const char* name;
  std::size_t size;
  const char* aliases[3];
};
// Names as nccl-tests prints them (common.cu test_typenames, NCCL >= 2.0 list).
constexpr std::array<TypeInfo, 10> kTypes{{
    {DataType::int8, "int8", 1, {"char", "i8", nullptr}},
    {DataType::uint8, "uint8", 1, {"u8", nullptr, nullptr}},
    {DataType::int32, "int32", 4, {"int", "i32", nullptr}},
    {DataType::uint32, "uint32", 4, {"u32", nullptr, nullptr}},
    {DataType::int64, "int64", 8, {"i64", nullptr, nullptr}},
    {DataType::uint64, "uint64", 8, {"u64", nullptr, nullptr}},
    {DataType::half, "half", 2, {"fp16", "float16", nullptr}},
    {DataType::float32, "float", 4, {"fp32", "float32", nullptr}},
    {DataType::float64, "double", 8, {"fp64", "float64", nullptr}},
    {DataType::bfloat16, "bfloat16", 2, {"bf16", nullptr, nullptr}},
}};

constexpr std::array<const char*, 5> kOps{"sum", "prod", "max", "min", "avg"};

}  // namespace

const std::vector<Collective>& all_collectives() {
  static const std::vector<Collective> v = [] {
    std::vector<Collective> r;
    for (const auto& i : kColls) r.push_back(i.c);
    return r;
  }();
  return v;
}

std::string_view name_of(Collective c) { return info(c).name; }
std::string_view nccl_tests_program(Collective c) { return info(c).program; }
bool has_redop(Collective c) { return info(c).redop; }
bool has_root(Collective c) { return info(c).root; }

std::optional<Collective> parse_collective(std::string_view s) {
  for (const auto& i : kColls)
    if (s == i.name || s == i.program || s == i.alias) return i.c;
  return std::nullopt;
}

std::string_view name_of(DataType t) { return kTypes[static_cast<std::size_t>(t)].name; }
std::size_t size_of(DataType t) { return kTypes[static_cast<std::size_t>(t)].size; }
std::optional<DataType> parse_datatype(std::string_view s) {
  for (const auto& i : kTypes) {
    if (s == i.name) return i.t;
    for (const char* a : i.aliases)
      if (a && s == a) return i.t;
  }
  return std::nullopt;
}

std::string_view name_of(RedOp o) { return kOps[static_cast<std::size_t>(o)]; }
std::optional<RedOp> parse_redop(std::string_view s) {
  for (std::size_t i = 0; i < kOps.size(); ++i)
    if (s == kOps[i]) return static_cast<RedOp>(i);
  return std::nullopt;
}

CollCounts coll_counts(Collective c, std::size_t count, std::size_t elt, int nranks) {
  CollCounts k;
  const std::size_t n = nranks > 0 ? static_cast<std::size_t>(nranks) : 1;
  // all_gather.cu / reduce_scatter.cu / alltoall.cu: the per-rank share rounded down to 16 bytes.
  const std::size_t align_mask = elt > 0 && elt <= 16 ? ~(16 / elt - 1) : ~std::size_t{0};
  switch (c) {
    case Collective::allreduce:
    case Collective::broadcast:
    case Collective::reduce:
    case Collective::sendrecv:
      k.send = k.recv = k.param = count;
      break;
    case Collective::allgather: {
      std::size_t base = (count / n) & align_mask;
      k.send = base;
      k.recv = base * n;
      k.send_inplace_offset = base;
      k.param = base;
      break;
    }
    case Collective::reducescatter: {
      std::size_t base = (count / n) & align_mask;
      k.send = base * n;
      k.recv = base;
      k.recv_inplace_offset = base;
      k.param = base;
      break;
    }
    case Collective::alltoall: {
      k.param = (count / n) & align_mask;
      k.send = k.recv = n * k.param;
      break;
    }
  }
  return k;
}

std::size_t printed_bytes(const CollCounts& k, std::size_t elt) { return (k.send > k.recv ? k.send : k.recv) * elt; }

double busbw_factor(Collective c, int nranks) {
  const double n = nranks;
  switch (c) {
    case Collective::allreduce: return nranks > 0 ? 2.0 * (n - 1) / n : 0.0;
    case Collective::allgather:
    case Collective::reducescatter:
    case Collective::alltoall: return nranks > 0 ? (n - 1) / n : 0.0;
    case Collective::broadcast:
    case Collective::reduce:
    case Collective::sendrecv: return 1.0;
  }
  return 1.0;
}

Bandwidth bandwidth(Collective c, std::size_t param_count, std::size_t elt, double seconds, int nranks) {
  double base = static_cast<double>(param_count) * static_cast<double>(elt);
  if (c == Collective::allgather || c == Collective::reducescatter || c == Collective::alltoall) base *= nranks;
  Bandwidth b;
  b.algbw_gbps = base / 1.0E9 / seconds;
  b.busbw_gbps = b.algbw_gbps * busbw_factor(c, nranks);
  return b;
}

std::vector<std::size_t> size_sweep(std::size_t min_bytes, std::size_t max_bytes, std::size_t factor, std::size_t step) {
  std::vector<std::size_t> out;
  if (min_bytes > max_bytes) return out;
  if (factor <= 1 && step == 0) return {min_bytes};  // nccl-tests would loop forever; we take one size
  for (std::size_t s = min_bytes; s <= max_bytes;) {
    out.push_back(s);
    std::size_t next = factor > 1 ? s * factor : s + step;
    if (next <= s || out.size() > 4096) break;  // size 0 times f, or an overflow
    s = next;
  }
  return out;
}

std::optional<std::size_t> parse_size(std::string_view s) {
  std::string t(s);
  while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.pop_back();
  if (t.empty()) return std::nullopt;
  double mult = 1;
  char last = t.back();
  if (last == 'K' || last == 'k') mult = 1024.0;
  else if (last == 'M' || last == 'm') mult = 1024.0 * 1024;
  else if (last == 'G' || last == 'g') mult = 1024.0 * 1024 * 1024;
  if (mult != 1) t.pop_back();
  if (t.empty()) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(t.c_str(), &end);
  if (end != t.c_str() + t.size() || !(v >= 0) || !std::isfinite(v)) return std::nullopt;
  double bytes = v * mult;
  if (bytes > 1e15) return std::nullopt;  // beyond any buffer we allocate
  return static_cast<std::size_t>(bytes);
}

}  // namespace ncdx::measure
