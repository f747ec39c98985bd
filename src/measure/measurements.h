#pragma once
// Measurements of `ncdx doctor` (and anything else that measures a machine).
//
// API, for callers such as doctor:
//   - Every measurement returns a Measurement {id, title, value, unit, expected, pct_of_expected,
//     status, detail}; to_json() gives the object doctor puts into its "measurements" array.
//   - value is null when the measurement could not run (status SKIP, detail says why).
//   - expected comes from the topology-derived model (measure/expected.h, data in
//     knowledge/data/gpu_models.yaml), never from fixed absolute thresholds. When the model has
//     no expectation (unknown GPU model, path across the CPU interconnect, /dev/shm) expected and
//     pct_of_expected are null and status is INFO.
//   - Verdict thresholds (judge()): PASS >= 80% of expected, WARN >= 50%, FAIL below 50%.
//     80% is about the ratio of NCCL's usable per-link NVLink rates to the raw rates
//     (NVIDIA/nccl src/graph/topo.h: 20-20.6 of 25 GB/s) and what healthy nccl-tests runs reach
//     (see docs/MEASUREMENTS.md for the calibration against real nccl-tests results).
// Entry points:
//   measure/shm_bench.h        /dev/shm write throughput (runs anywhere)
//   measure/storage_bench.h    fsync'd sequential write/read of a directory (O_DIRECT if possible)
//   measure/checkpoint.h       checkpoint time estimate vs the collective timeout -> Finding
//   measure/cuda_bench.h       H2D/D2H/D2D per GPU, P2P bandwidth and latency matrices (CUDA runtime)
//   measure/nccl_bench.h       local NCCL all-reduce busbw over all local GPUs (ncclCommInitAll)
//   measure/expected.h         the expected-value model
#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "core/outcome.h"

namespace ncdx::measure {


inline constexpr double kPassPct = 80.0;
inline constexpr double kWarnPct = 50.0;

struct Measurement {
  std::string id;                       // stable: "shm.write", "gpu0.h2d", "p2p.0-1.bw", ...
  std::string title;                    // one line for humans
  std::optional<double> value;          // null when not measured
  std::string unit;                     // "GB/s", "us", "s"
  std::optional<double> expected;       // same unit; null when the model has no expectation
  std::optional<double> pct_of_expected;
  core::Outcome status = core::Outcome::info;  // core/outcome.h
  std::string detail;                   // how it was measured / why skipped / what expected means
};

// Fills pct_of_expected and status from value and expected (PASS/WARN/FAIL, INFO when either is
// unknown). For latency-like units where lower is better, pass lower_is_better = true: the
// percentage is then expected/value.
void judge(Measurement& m, bool lower_is_better = false);
Measurement skipped(std::string id, std::string title, std::string unit, std::string why);

nlohmann::json to_json(const Measurement& m);

}  // namespace ncdx::measure
