#pragma once
// Renderers of a `ncdx bench` result (measure/collective/bench_run.h):
//  - nccl-tests' text: the header comments, the results table and the "# Avg bus bandwidth"
//    footer printed with nccl-tests' own printf formats (util.cu writeBenchmarkLine*,
//    writeResultHeader/Footer @ NVIDIA/nccl-tests a0b82b2), so parsers of nccl-tests output read
//    ours; ncdx's extra lines (arrival skew) come after the footer, as '#' comments.
//  - nccl-tests' JSON (-J, JSON_FILE_VERSION 3), same keys in the same order.
//  - ncdx's own JSON, "schema": "ncdx.bench/1" (docs/schema/bench.schema.json).
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "analyze/judge/judge.h"
#include "measure/collective/bench_run.h"

namespace ncdx::report {

struct BenchRenderOptions {
  bool per_iter = false;   // nccl-tests -I 1: i_min/i_max/i_p99/i_cv% columns
  bool timestamps = true;  // start/end times in the nccl-tests JSON
  std::vector<std::string> argv;
  // The NCCL cost model's judgement of this run (cli/cmd_bench.cc expectation()): printed after
  // nccl-tests' footer as '#' lines, the expected busbw per size and the verdict.
  const analyze::judge::Judgement* judgement = nullptr;
};

std::string render_bench_nccl_tests(const measure::BenchResult& r, const BenchRenderOptions& o);
nlohmann::ordered_json bench_nccl_tests_json(const measure::BenchResult& r, const BenchRenderOptions& o);
// `judged`: the cost model's judgement of the run; it fills each row's expected_busbw_gbps and
// pct_of_expected and the "expected" block. Null (no model asked, --backend mpi): those are null.
nlohmann::json bench_json(const measure::BenchResult& r, const nlohmann::json& context,
                          const analyze::judge::Judgement* judged = nullptr);

// nccl-tests getFloatStr: the widest of %.2f, %.1f, %.0f, %.1e that fits `width`.
std::string nccl_tests_float(double v, int width);

}  // namespace ncdx::report
