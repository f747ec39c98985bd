#include "report/bench/bench_render.h"

#include <cstdio>
#include <ctime>

#include "core/redact.h"
#include "model/cost/spec_parse.h"
#include "core/version.h"

namespace ncdx::report {

namespace {

using measure::BenchResult;
using measure::PlaceResult;

std::string fmt(const char* f, auto... args) {
  char buf[512];
  std::snprintf(buf, sizeof buf, f, args...);
  return buf;
}

std::string program(const BenchResult& r) { return std::string(measure::nccl_tests_program(r.options.coll)); }
std::string op_name(const BenchResult& r) {
  return measure::has_redop(r.options.coll) ? std::string(measure::name_of(r.options.op)) : "none";
}
int root_of(const BenchResult& r) { return measure::has_root(r.options.coll) ? r.options.root : -1; }

std::string body(const PlaceResult& p, bool per_iter) {
  std::string s;
  if (p.wrong)
    s = fmt("  %7s  %6s  %6s  %6g", nccl_tests_float(p.time_us, 7).c_str(), nccl_tests_float(p.algbw_gbps, 6).c_str(),
            nccl_tests_float(p.busbw_gbps, 6).c_str(), static_cast<double>(*p.wrong));
  else
    s = fmt("  %7s  %6s  %6s    N/A", nccl_tests_float(p.time_us, 7).c_str(), nccl_tests_float(p.algbw_gbps, 6).c_str(),
            nccl_tests_float(p.busbw_gbps, 6).c_str());
  if (per_iter)
    s += fmt("  %7s  %7s  %7s  %7s", nccl_tests_float(p.iter.min, 7).c_str(), nccl_tests_float(p.iter.max, 7).c_str(),
             nccl_tests_float(p.iter.p99, 7).c_str(), nccl_tests_float(p.iter.cv_pct, 7).c_str());
  return s;
}

std::string now_text() {
  char buf[64];
  std::time_t t = std::time(nullptr);
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", std::localtime(&t));
  return buf;
}

nlohmann::json iter_json(const measure::IterStats& s) {
  return {{"n", s.n}, {"min_us", s.min}, {"p50_us", s.p50}, {"p95_us", s.p95}, {"p99_us", s.p99},
          {"max_us", s.max}, {"avg_us", s.avg}, {"stdev_us", s.stdev}, {"cv_pct", s.cv_pct}};
}

nlohmann::json place_json(const PlaceResult& p) {
  return {{"time_us", p.time_us}, {"algbw_gbps", p.algbw_gbps}, {"busbw_gbps", p.busbw_gbps},
          {"wrong", p.wrong ? nlohmann::json(*p.wrong) : nlohmann::json(nullptr)}, {"iter", iter_json(p.iter)}};
}

const analyze::judge::JudgedRow* judged_row(const analyze::judge::Judgement* j, std::size_t bytes) {
  if (!j) return nullptr;
  for (const auto& r : j->rows)
    if (r.size == bytes) return &r;
  return nullptr;
}

// The cost model's expectation after nccl-tests' footer: '#' lines, so readers of nccl-tests
// output skip them. Columns: measured busbw (out-of-place, else in-place: the judge's), expected,
// their ratio, NCCL's pick; '*' marks the bandwidth-bound sizes the verdict is taken over.
std::string expectation_lines(const BenchResult& r, const analyze::judge::Judgement& j) {
  std::string s = "# ncdx expected busbw: ";
  if (j.spec)
    s += "NCCL " + j.nccl_version + " cost model on " + model::cost::describe(*j.spec) + " (" + j.spec_source + ")\n";
  else
    s += "none\n";
  if (j.spec) {
    s += fmt("# %10s  %10s  %10s  %8s  %s\n", "size", "busbw", "expected", "%", "NCCL's pick");
    for (const auto& row : r.rows) {
      const auto* jr = judged_row(&j, row.bytes);
      if (!jr || !jr->expected_busbw) continue;
      std::string pick = jr->algo + (jr->proto.empty() ? "" : " " + jr->proto) +
                         (jr->nchannels > 0 ? ", " + std::to_string(jr->nchannels) + " ch" : "");
      s += fmt("# %10li  %10.2f  %10.2f  %7.0f%%%s  %s\n", static_cast<long>(row.bytes),
               jr->measured_busbw.value_or(0.0), *jr->expected_busbw, jr->ratio.value_or(0.0) * 100, jr->counted ? "*" : " ",
               pick.c_str());
    }
  }
  s += "# ncdx verdict: " + j.verdict + "\n";
  for (const auto& c : j.causes) s += "#   likely: " + c + "\n";
  return s;
}

}  // namespace

std::string nccl_tests_float(double v, int width) {
  char buf[64];
  const int w1 = width + 1;
  if (std::snprintf(buf, static_cast<std::size_t>(w1), "%*.2f", width, v) <= width) return buf;
  if (std::snprintf(buf, static_cast<std::size_t>(w1), "%*.1f", width, v) <= width) return buf;
  if (std::snprintf(buf, static_cast<std::size_t>(w1), "%*.0f", width, v) <= width) return buf;
  std::snprintf(buf, static_cast<std::size_t>(w1), width >= 7 ? "%*.1e" : "%*.0e", width, v);
  return buf;
}

std::string render_bench_nccl_tests(const BenchResult& r, const BenchRenderOptions& o) {
  const auto& op = r.options;
  std::string s;
  s += fmt("# ncdx bench %s: backend %s, %s (nccl-tests %s format)\n", core::kVersion, r.backend.c_str(), r.library.c_str(),
           "2.19.6");
  s += "# Collective test starting: " + program(r) + "\n";
  const int ngpus = r.nprocs > 0 ? r.nranks / r.nprocs : r.nranks;
  const bool factor = op.step_factor > 1;
  s += fmt("# nThread %d nGpus %d minBytes %ld maxBytes %ld step: %ld(%s) warmup iters: %d iters: %d agg iters: %d "
           "validation: %d graph: %d unalign: %d\n",
           1, ngpus, static_cast<long>(op.min_bytes), static_cast<long>(op.max_bytes),
           static_cast<long>(factor ? op.step_factor : op.step_bytes), factor ? "factor" : "bytes", op.warmup, op.iters, 1,
           op.check, 0, 0);
  if (o.per_iter) s += "# Per-Iteration Report: host timing; i_* uses max over process rows \n";
  s += "#\n# Using devices\n";
  for (const auto& d : r.ranks) {
    std::string bus = d.device.bus;
    s += fmt("#  Rank %2d Group %2d Pid %6d on %10s device %2d [%s] %s\n", d.rank, 0, d.pid, d.host.c_str(),
             d.device.device, bus.c_str(), d.device.name.c_str());
  }
  s += "#\n";
  if (o.per_iter) {
    s += fmt("# %10s  %12s  %8s  %6s  %6s              out-of-place (+ per-iteration)                                in-place (+ per-iteration)\n",
             "", "", "", "", "");
    s += fmt("# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %7s  %7s  %7s  %7s  %6s  %6s  %6s  %7s  %7s  %7s  %7s %*s\n",
             "size", "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong", "i_min", "i_max", "i_p99", "i_cv%",
             "time", "algbw", "busbw", "#wrong", "i_min", "i_max", "i_p99", "i_cv%", 0, "");
    s += fmt("# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %7s  %7s  %7s  %7s  %6s  %6s  %6s  %7s  %7s  %7s  %7s %*s\n",
             "(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(us)", "(us)", "(%)", "(us)", "(GB/s)",
             "(GB/s)", "", "(us)", "(us)", "(us)", "(%)", 0, "");
  } else {
    s += fmt("# %10s  %12s  %8s  %6s  %6s           out-of-place                       in-place          \n", "", "", "", "", "");
    s += fmt("# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s %*s\n", "size", "count", "type", "redop",
             "root", "time", "algbw", "busbw", "#wrong", "time", "algbw", "busbw", "#wrong", 0, "");
    s += fmt("# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s %*s\n", "(B)", "(elements)", "", "", "",
             "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)", "", 0, "");
  }
  const std::string type(measure::name_of(op.type)), opn = op_name(r);
  const std::string root = fmt("%6i", root_of(r));
  for (const auto& row : r.rows) {
    s += fmt("%12li  %12li  %8s  %6s  %6s", static_cast<long>(row.bytes), static_cast<long>(row.count), type.c_str(),
             opn.c_str(), root.c_str());
    s += body(row.out_of_place, o.per_iter);
    s += body(row.in_place, o.per_iter);
    s += "\n";
  }
  s += fmt("# %-20s : %d %s\n", "Out of bounds values", r.out_of_bounds, r.out_of_bounds ? "FAILED" : "OK");
  s += fmt("# %-20s : %g %s\n", "Avg bus bandwidth", r.avg_busbw_gbps, "");
  s += "#\n# Collective test concluded: " + program(r) + "\n#\n";
  // ncdx's additions, after nccl-tests' own footer.
  bool any_skew = false;
  for (const auto& row : r.rows) any_skew |= row.skew.has_value();
  if (any_skew) {
    s += "# ncdx arrival skew (out-of-place iterations; last arrival minus first, rank clocks aligned to rank 0)\n";
    s += fmt("# %10s  %10s  %10s  %10s  %9s  %6s\n", "size", "median(us)", "p95(us)", "max(us)", "last-rank", "share");
    for (const auto& row : r.rows)
      if (row.skew)
        s += fmt("# %10li  %10.2f  %10.2f  %10.2f  %9d  %5.0f%%\n", static_cast<long>(row.bytes), row.skew->median_us,
                 row.skew->p95_us, row.skew->max_us, row.skew->last_rank, row.skew->last_share * 100);
  }
  if (o.judgement) s += expectation_lines(r, *o.judgement);
  s += "\n";
  return s;
}

nlohmann::ordered_json bench_nccl_tests_json(const BenchResult& r, const BenchRenderOptions& o) {
  using oj = nlohmann::ordered_json;
  const auto& op = r.options;
  oj j;
  j["version"] = 3;
  j["start_time"] = o.timestamps ? oj(now_text()) : oj(nullptr);
  j["args"] = o.argv;
  oj env = oj::array();
  for (const auto& [k, v] : core::relevant_env()) env.push_back(k + "=" + v);
  j["env"] = env;
  j["nccl_version"] = nullptr;
  oj cfg;
  cfg["nthreads"] = 1;
  cfg["ngpus"] = r.nprocs > 0 ? r.nranks / r.nprocs : r.nranks;
  cfg["minimum_bytes"] = op.min_bytes;
  cfg["maximum_bytes"] = op.max_bytes;
  if (op.step_factor > 1) cfg["step_factor"] = op.step_factor;
  else cfg["step_bytes"] = op.step_bytes;
  cfg["warmup_iters"] = op.warmup;
  cfg["iterations"] = op.iters;
  cfg["aggregated_iterations"] = 1;
  cfg["validation"] = op.check;
  cfg["graph"] = 0;
  cfg["blocking_collectives"] = "false";
  cfg["per_iter_timing"] = o.per_iter ? "true" : "false";
  cfg["per_iter_skip"] = 0;
  cfg["parallel_init"] = "false";
  oj devs = oj::array();
  for (const auto& d : r.ranks)
    devs.push_back({{"rank", d.rank}, {"group", 0}, {"pid", d.pid}, {"hostname", d.host}, {"device", d.device.device},
                    {"device_hex", d.device.bus}, {"device_info", d.device.name}});
  cfg["devices"] = devs;
  j["config"] = cfg;
  oj results = oj::array();
  const std::string root = fmt("%6i", root_of(r));
  for (const auto& row : r.rows) {
    oj x;
    x["size"] = row.bytes;
    x["count"] = row.count;
    x["type"] = std::string(measure::name_of(op.type));
    x["redop"] = op_name(r);
    x["root"] = root;
    for (bool ip : {false, true}) {
      const auto& p = ip ? row.in_place : row.out_of_place;
      x[ip ? "in_place" : "out_of_place"] = {{"time", p.time_us}, {"alg_bw", p.algbw_gbps}, {"bus_bw", p.busbw_gbps},
                                             {"nwrong", p.wrong ? oj(static_cast<double>(*p.wrong)) : oj(nullptr)}};
    }
    x["actual_iterations"] = op.iters;
    x["experiment_name"] = "";
    results.push_back(x);
  }
  j["results"] = results;
  j["out_of_bounds"] = {{"count", r.out_of_bounds}, {"okay", r.out_of_bounds == 0 ? "true" : "false"}};
  j["average_bus_bandwidth"] = {{"bandwidth", r.avg_busbw_gbps}, {"okay", "unchecked"}};
  j["errors"] = oj::array();
  j["end_time"] = o.timestamps ? oj(now_text()) : oj(nullptr);
  return j;
}

nlohmann::json bench_json(const BenchResult& r, const nlohmann::json& context, const analyze::judge::Judgement* judged) {
  const auto& op = r.options;
  nlohmann::json j = {{"schema", "ncdx.bench/1"}, {"context", context}};
  j["collective"] = std::string(measure::name_of(op.coll));
  j["backend"] = r.backend;
  j["library"] = r.library;
  j["launcher"] = r.launcher;
  j["nranks"] = r.nranks;
  j["nprocs"] = r.nprocs;
  j["options"] = {{"min_bytes", op.min_bytes}, {"max_bytes", op.max_bytes}, {"step_factor", op.step_factor},
                  {"step_bytes", op.step_bytes}, {"iters", op.iters}, {"warmup", op.warmup}, {"check", op.check},
                  {"type", std::string(measure::name_of(op.type))}, {"op", op_name(r)}, {"root", root_of(r)},
                  {"average", op.average}};
  nlohmann::json ranks = nlohmann::json::array();
  for (const auto& d : r.ranks)
    ranks.push_back({{"rank", d.rank}, {"pid", d.pid}, {"host", d.host}, {"device", d.device.device}, {"bus", d.device.bus},
                     {"device_name", d.device.name}});
  j["ranks"] = ranks;
  nlohmann::json rows = nlohmann::json::array();
  for (std::size_t i = 0; i < r.rows.size(); ++i) {
    const auto& row = r.rows[i];
    nlohmann::json x = {{"bytes", row.bytes}, {"count", row.count}, {"out_of_place", place_json(row.out_of_place)},
                        {"in_place", place_json(row.in_place)}};
    if (row.skew)
      x["skew"] = {{"median_us", row.skew->median_us}, {"p95_us", row.skew->p95_us}, {"max_us", row.skew->max_us},
                   {"last_rank", row.skew->last_rank}, {"last_share", row.skew->last_share},
                   {"mean_lateness_us", row.skew->mean_lateness_us}};
    else
      x["skew"] = nullptr;
    const auto* jr = judged_row(judged, row.bytes);
    nlohmann::json exp = jr && jr->expected_busbw ? nlohmann::json(*jr->expected_busbw) : nlohmann::json(nullptr);
    x["expected_busbw_gbps"] = exp;
    x["pct_of_expected"] = exp.is_number() && exp.get<double>() > 0
                               ? nlohmann::json(100.0 * row.out_of_place.busbw_gbps / exp.get<double>())
                               : nlohmann::json(nullptr);
    rows.push_back(x);
  }
  j["results"] = rows;
  j["out_of_bounds"] = r.out_of_bounds;
  j["avg_busbw_gbps"] = r.avg_busbw_gbps;
  j["verdict"] = r.out_of_bounds ? "wrong results" : "ok";
  if (judged) {
    namespace aj = analyze::judge;
    auto oj = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
    j["expected"] = {{"model", judged->nccl_version.empty() ? nlohmann::json(nullptr) : nlohmann::json("NCCL " + judged->nccl_version)},
                     {"spec", judged->spec ? nlohmann::json(model::cost::describe(*judged->spec)) : nlohmann::json(nullptr)},
                     {"spec_source", judged->spec_source.empty() ? nlohmann::json(nullptr) : nlohmann::json(judged->spec_source)},
                     {"verdict", std::string(aj::name(judged->kind))},
                     {"summary", judged->verdict},
                     {"pct_of_expected", oj(judged->pct_of_expected)},
                     {"causes", judged->causes}};
  }
  return j;
}

}  // namespace ncdx::report
