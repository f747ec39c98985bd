#include "model/cost/algo_enable.h"

#include "core/strings.h"

namespace ncdx::model::cost {
namespace {

bool per_function_syntax(const NcclVersion& v) { return v.code() >= 22403; }

template <std::size_t N, class E, class Known>
core::Status apply_list(const std::string& text, std::array<std::array<bool, N>, kNumNcclFuncs>& m,
                        const NcclVersion& v, E parse, Known known, const char* what) {
  auto entries = per_function_syntax(v) ? core::split(text, ';') : std::vector<std::string_view>{text};
  bool first = true;
  for (const auto& raw : entries) {
    std::string entry(core::trim(raw));
    std::string prefix, list = entry;
    if (per_function_syntax(v)) {
      if (auto colon = entry.find(':'); colon != std::string::npos) {
        prefix = entry.substr(0, colon);
        list = entry.substr(colon + 1);
      } else if (!first) {
        return core::Status::usage(std::string(what) + "=\"" + text + "\": all entries except the first must have a prefix");
      }
    }
    first = false;
    bool negate = !list.empty() && list[0] == '^';
    if (negate) list.erase(0, 1);
    std::array<bool, N> row{};
    row.fill(negate);
    for (const auto& tok_raw : core::split(list, ',')) {
      std::string tok(core::trim(tok_raw));
      if (tok.empty()) continue;
      auto e = parse(tok);
      if (!e || !known(*e)) {
        if (per_function_syntax(v))
          return core::Status::usage(std::string(what) + "=\"" + text + "\": unrecognized element token \"" + tok + "\" (NCCL " + v.str() + " fails init with ncclInvalidUsage)");
        continue;  // <= 2.23: silently ignored
      }
      row[static_cast<int>(*e)] = !negate;
    }
    bool matched = false;
    for (int f = 0; f < kNumNcclFuncs; ++f) {
      if (!prefix.empty() && !core::iequals(prefix, nccl_name(static_cast<Collective>(f)))) continue;
      m[f] = row;
      matched = true;
    }
    if (!matched) return core::Status::usage(std::string(what) + "=\"" + text + "\": unrecognized prefix token \"" + prefix + "\"");
  }
  return core::Status::ok();
}

}  // namespace

bool algo_runs(Collective c, Algo a, const NcclVersion& v) {
  if (c == Collective::Broadcast || c == Collective::Reduce) return a == Algo::Ring;
  if (c == Collective::AllGather || c == Collective::ReduceScatter) {
    if (v.family() == Family::V2_14_18) return a == Algo::Ring;
    return a == Algo::Ring || a == Algo::Nvls || (a == Algo::CollNetDirect && v.code() >= 22000) || a == Algo::Pat;
  }
  return c == Collective::AllReduce && a != Algo::Pat;
}

bool proto_runs(Algo a, Proto p) {
  return p == Proto::Simple || (a != Algo::Nvls && a != Algo::NvlsTree && a != Algo::Pat && a != Algo::CollNetDirect && a != Algo::CollNetChain);
}

bool algo_known(Algo a, const NcclVersion& v) {
  if (a == Algo::Nvls || a == Algo::NvlsTree) return v.code() >= 21700;
  if (a == Algo::Pat) return v.code() >= 22300;
  return true;
}

core::Result<EnableMatrix> parse_enable(const std::string& algo, const std::string& proto, const NcclVersion& v) {
  EnableMatrix m;
  for (auto& r : m.algo) r.fill(true);
  for (auto& r : m.proto) r.fill(true);
  if (!proto.empty()) {
    m.proto_set = true;
    auto st = apply_list(proto, m.proto, v, parse_proto, [](Proto) { return true; }, "NCCL_PROTO");
    if (!st) return st;
  }
  if (!algo.empty()) {
    m.algo_set = true;
    auto st = apply_list(algo, m.algo, v, parse_algo, [&](Algo a) { return algo_known(a, v); }, "NCCL_ALGO");
    if (!st) return st;
    // 2.14-2.18: the list only restricts AllReduce ("Never disable ring for non-allreduce
    // operations", src/graph/tuning.cc:296 @v2.18.6-1).
    if (v.family() == Family::V2_14_18)
      for (int f = 0; f < kNumNcclFuncs; ++f)
        if (f != static_cast<int>(Collective::AllReduce)) m.algo[f].fill(true);
  }
  return m;
}

}  // namespace ncdx::model::cost
