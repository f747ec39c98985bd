#include "model/cost/what_if.h"

#include <cctype>
#include <cmath>
#include <cstdio>

#include "core/strings.h"
#include "model/cost/spec_parse.h"

namespace ncdx::model::cost {
namespace {

core::Result<WhatIfCase> run_case(std::string label, const ClusterSpec& s, const NcclVersion& v, Collective c,
                                  std::uint64_t bytes, std::uint64_t ops, const Options& o) {
  auto m = Model::build(s, v, o);
  if (!m.ok()) return m.status();
  WhatIfCase w;
  w.label = std::move(label);
  w.spec = describe(s);
  w.nccl_version = v.str();
  w.coll = c;
  w.bytes = bytes;
  w.ops = ops;
  w.prediction = m->predict(c, bytes);
  w.time_us = w.prediction.time_us * static_cast<double>(ops);
  return w;
}

std::string ratio_text(const WhatIfCase& base, const WhatIfCase& other) {
  char buf[200];
  if (base.time_us <= 0 || other.time_us <= 0) return "no comparison (an op is unavailable)";
  double r = other.time_us / base.time_us;
  std::snprintf(buf, sizeof buf, "%s: %.3g us vs %.3g us (%.2fx %s)", other.label.c_str(), other.time_us, base.time_us,
                r >= 1 ? r : 1 / r, r >= 1 ? "slower" : "faster");
  return buf;
}

}  // namespace

std::optional<std::uint64_t> parse_size(std::string_view s, bool decimal_b_is_billion) {
  std::string t = core::to_lower(core::trim(s));
  if (t.empty()) return std::nullopt;
  double mul = 1;
  auto ends = [&](std::string_view suf) {
    if (t.size() > suf.size() && t.ends_with(suf)) { t.resize(t.size() - suf.size()); return true; }
    return false;
  };
  if (ends("kib") || ends("kb") || ends("k")) mul = 1024.0;
  else if (ends("mib") || ends("mb") || ends("m")) mul = 1024.0 * 1024;
  else if (ends("gib") || ends("gb") || ends("g")) mul = 1024.0 * 1024 * 1024;
  else if (decimal_b_is_billion && ends("b")) mul = 1e9;
  else if (ends("b")) mul = 1;
  auto v = core::parse_double(t);
  if (!v || *v < 0 || !std::isfinite(*v) || *v * mul > 1e18) return std::nullopt;
  return static_cast<std::uint64_t>(std::llround(*v * mul));
}

core::Result<WhatIf> what_if(const std::string& scenario, const ClusterSpec& spec, const NcclVersion& version,
                             std::uint64_t bytes, const Options& options) {
  WhatIf w;
  w.scenario = scenario;
  auto add = [&](core::Result<WhatIfCase> c) -> core::Status {
    if (!c.ok()) return c.status();
    w.cases.push_back(std::move(*c));
    return core::Status::ok();
  };
  auto key = scenario.substr(0, scenario.find('='));
  std::string arg = scenario.find('=') == std::string::npos ? "" : scenario.substr(scenario.find('=') + 1);
  core::Status st;
  if (key == "tp") {
    ClusterSpec one = spec, two = spec;
    one.nodes = 1;
    two.nodes = 2;
    if (two.nics_per_node == 0) return core::Status::usage("--what-if tp needs a NIC in the spec (nic=<count>x<rate>G)");
    int g = spec.gpus_per_node;
    if (!(st = add(run_case("TP=" + std::to_string(g) + " in one node", one, version, Collective::AllReduce, bytes, 1, options)))) return st;
    if (!(st = add(run_case("TP=" + std::to_string(2 * g) + " across 2 nodes", two, version, Collective::AllReduce, bytes, 1, options)))) return st;
  } else if (key == "dp") {
    auto colon = arg.find(':');
    auto params = parse_size(arg.substr(0, colon), true);
    auto bucket = colon == std::string::npos ? std::optional<std::uint64_t>(25ull << 20) : parse_size(arg.substr(colon + 1));
    if (!params || !bucket || *bucket == 0 || *params == 0)
      return core::Status::usage("--what-if dp=<params>:<bucket> expected, e.g. dp=7B:25M (got \"" + scenario + "\")");
    std::uint64_t grad_bytes = *params * 2;  // bf16 gradients
    std::uint64_t full = grad_bytes / *bucket, rest = grad_bytes % *bucket;
    auto c = run_case("DP all-reduce of " + arg.substr(0, colon) + " bf16 gradients, " + std::to_string(full) + " buckets",
                      spec, version, Collective::AllReduce, *bucket, full, options);
    if (!c.ok()) return c.status();
    if (rest) {
      auto m = Model::build(spec, version, options);
      if (m.ok()) c->time_us += m->predict(Collective::AllReduce, rest).time_us;
    }
    w.cases.push_back(std::move(*c));
    char buf[200];
    std::snprintf(buf, sizeof buf, "gradient all-reduce per step: %.3f ms (%llu bytes in %llu-byte buckets, no overlap)",
                  w.cases[0].time_us / 1000.0, static_cast<unsigned long long>(grad_bytes), static_cast<unsigned long long>(*bucket));
    w.summary = buf;
    return w;
  } else if (key == "lose-nic") {
    if (spec.nics_per_node < 2) return core::Status::usage("--what-if lose-nic needs at least 2 NICs per node in the spec");
    ClusterSpec less = spec;
    less.nics_per_node -= 1;
    if (!(st = add(run_case("all NICs", spec, version, Collective::AllReduce, bytes, 1, options)))) return st;
    if (!(st = add(run_case("one NIC per node lost", less, version, Collective::AllReduce, bytes, 1, options)))) return st;
  } else if (key == "lose-nvlink") {
    if (spec.nvlink_links < 2) return core::Status::usage("--what-if lose-nvlink needs nvlink=NV<k> with k >= 2 in the spec");
    ClusterSpec less = spec;
    less.nvlink_links -= 1;  // NCCL keeps the minimum over ranks (init.cc allGather3), so one GPU bounds all
    if (!(st = add(run_case("all NVLinks", spec, version, Collective::AllReduce, bytes, 1, options)))) return st;
    if (!(st = add(run_case("one NVLink lost on one GPU", less, version, Collective::AllReduce, bytes, 1, options)))) return st;
  } else if (key == "nccl") {
    auto other = NcclVersion::parse(arg);
    if (!other) return core::Status::usage("--what-if nccl=<version> expected, e.g. nccl=2.18.6 (got \"" + scenario + "\")");
    if (!(st = add(run_case("NCCL " + version.str(), spec, version, Collective::AllReduce, bytes, 1, options)))) return st;
    if (!(st = add(run_case("NCCL " + other->str(), spec, *other, Collective::AllReduce, bytes, 1, options)))) return st;
  } else {
    return core::Status::usage("--what-if \"" + scenario + "\": expected tp, dp=<params>:<bucket>, lose-nic, lose-nvlink or nccl=<version>");
  }
  w.summary = ratio_text(w.cases[0], w.cases[1]);
  return w;
}

}  // namespace ncdx::model::cost
