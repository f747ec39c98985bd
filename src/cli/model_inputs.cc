// Loading the cost model's inputs for `ncdx model` and `ncdx tune --model` (model_inputs.h).
#include "cli/model_inputs.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "analyze/judge/nccl_tests_parse.h"
#include "core/strings.h"
#include "model/cost/spec_parse.h"
#include "model/cost/what_if.h"

namespace ncdx::cli {
namespace {

constexpr std::size_t kMaxInput = 256u << 20;

}  // namespace

core::Result<std::string> read_input(const std::string& path) {
  std::stringstream ss;
  if (path == "-") {
    ss << std::cin.rdbuf();
  } else {
    std::ifstream f(path, std::ios::binary);
    if (!f) return core::Status::not_found(path + ": cannot open");
    ss << f.rdbuf();
  }
  std::string s = ss.str();
  if (s.size() > kMaxInput) return core::Status::bad_input(path + ": larger than 256 MiB");
  return s;
}

core::Result<std::vector<std::uint64_t>> model_sizes(const std::string& min_bytes, const std::string& max_bytes, const std::string& factor) {
  auto b = model::cost::parse_size(min_bytes), e = model::cost::parse_size(max_bytes);
  auto f = core::parse_double(factor);
  if (!b || !e || *b == 0 || *e < *b) return core::Status::usage("-b/-e expect sizes like 8, 64K, 128M, 4G with -b <= -e");
  if (!f || *f < 1.01 || *f > 1024) return core::Status::usage("-f expects a step factor 1.01..1024 (2 = nccl-tests default)");
  std::vector<std::uint64_t> out;
  for (double s = static_cast<double>(*b); s <= static_cast<double>(*e) * 1.0000001 && out.size() < 200; s *= *f)
    out.push_back(static_cast<std::uint64_t>(s));
  return out;
}

core::Result<ModelInputs> load_model_inputs(const ModelInputFlags& f, const char* cmd) {
  namespace mc = model::cost;
  ModelInputs in;
  in.options.nccl_algo = f.algo;
  in.options.nccl_proto = f.proto;
  if (!f.nccl.empty()) {
    in.given_version = mc::NcclVersion::parse(f.nccl);
    if (!in.given_version) return core::Status::usage("--nccl expects an NCCL version such as 2.27.7 (got \"" + f.nccl + "\")");
  }
  std::optional<mc::NcclLogFacts> log;
  if (!f.nccl_log.empty()) {
    auto text = read_input(f.nccl_log);
    if (!text.ok()) return text.status();
    log = mc::read_nccl_log(*text);
    if (!log->graphs && !log->version && !log->nranks)
      return core::Status::bad_input(f.nccl_log + ":1: no NCCL INFO lines with a version, comm shape or Pattern lines (expected NCCL_DEBUG=INFO output)");
    if (log->graphs) in.options.graphs = log->graphs;
    if (!in.given_version && log->version) in.given_version = log->version;
    if (in.options.nccl_algo.empty()) in.options.nccl_algo = log->nccl_algo;
    if (in.options.nccl_proto.empty()) in.options.nccl_proto = log->nccl_proto;
  }
  in.version = in.given_version.value_or(mc::NcclVersion{2, 27, 7});
  if (!f.spec.empty()) {
    auto s = mc::parse_spec(f.spec);
    if (!s.ok()) return s.status();
    in.spec = *s;
  }
  if (in.spec && log && log->nranks && log->nnodes && in.spec->nranks() != *log->nranks)
    std::fprintf(stderr, "ncdx %s: warning: --spec has %d ranks, the NCCL log %d\n", cmd, in.spec->nranks(), *log->nranks);
  if (!f.calibrate.empty()) {
    if (!in.spec) return core::Status::usage("--calibrate needs --spec (the cluster the sweep ran on)");
    auto text = read_input(f.calibrate);
    if (!text.ok()) return text.status();
    auto runs = analyze::judge::parse_nccl_tests(*text, f.calibrate);
    if (!runs.ok()) return runs.status();
    auto c = analyze::judge::calibrate(*runs, *in.spec, in.version);
    if (!c.ok()) return c.status().with_context(f.calibrate);
    in.options.bw_scale = c->bw_scale;
    in.options.lat_scale = c->lat_scale;
    in.calibration = *c;
    std::fprintf(stderr, "ncdx %s: calibrated (%s) on %s: bandwidth x%.3f (%d sizes), latency x%.3f (%d sizes)\n", cmd,
                 c->link_class.c_str(), f.calibrate.c_str(), c->bw_scale, c->bw_points, c->lat_scale, c->lat_points);
  }
  return in;
}

}  // namespace ncdx::cli
