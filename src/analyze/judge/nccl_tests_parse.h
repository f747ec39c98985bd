#pragma once
// Reader of nccl-tests results (NVIDIA/nccl-tests src/util.cu, any version): the text table
// with its header, rows and footer as printed to stdout (also with mpirun "[1,0]<stdout>:"
// prefixes, NCCL INFO lines interleaved, '#' lost by a docs renderer, markdown indentation),
// the pre-2.13 format (no root column, `error` instead of `#wrong`), the per-iteration columns
// of 2.17+, the JSON file written with `-J out.json`, and ncdx bench's own `--json` (ncdx.bench/1).
// ncdx bench writes the same formats.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "model/cost/types.h"

namespace ncdx::analyze::judge {

struct NcclTestsSide {                 // out-of-place or in-place columns of one row
  std::optional<double> time_us, algbw_gbps, busbw_gbps;
  std::optional<double> wrong;         // #wrong (count) or old `error` (max relative error); null = N/A
};

struct NcclTestsRow {
  std::uint64_t size = 0;              // bytes (the "size" column)
  std::uint64_t count = 0;
  std::string type, redop;
  std::optional<int> root;
  NcclTestsSide oop, ip;
  int line = 0;                        // 1-based line in the input (0 for JSON)
};

// What NCCL INFO lines interleaved with the table say about the transport (NCCL_DEBUG=INFO).
struct TransportHints {
  bool net_socket = false, net_ib = false, gdr = false, via_net = false, shm = false;
  std::string nccl_algo, nccl_proto, ib_hca;   // "set by environment" values
};

struct NcclTestsRun {
  std::optional<model::cost::Collective> coll;
  std::string test_name;               // "all_reduce_perf"
  std::optional<std::string> nccl_version;   // "2.26.2" (nccl-library= code or "NCCL version")
  std::optional<std::string> tests_version;  // "2.17.6"
  std::optional<int> nthreads, ngpus;
  int ranks_listed = 0;                // "#  Rank  N Group ..." lines
  std::vector<std::string> hosts;      // distinct hosts of those lines, in order
  std::string device_name;             // of rank 0 ("NVIDIA H100 80GB HBM3")
  bool wrong_is_error_metric = false;  // old format: `error` column holds a relative error
  std::vector<NcclTestsRow> rows;
  std::optional<double> avg_busbw;     // "# Avg bus bandwidth : X"
  std::optional<long long> out_of_bounds;    // "# Out of bounds values : N OK|FAILED"
  TransportHints hints;
  int first_line = 0;
  std::string format;                  // "text", "json" (nccl-tests -J) or "ncdx.bench" (ncdx bench --json)
};

// All runs in the input (several tests may be concatenated). Bad input (no table, a JSON file
// that is not nccl-tests JSON) -> bad_input with name:line. Memory is bounded by the row cap.
core::Result<std::vector<NcclTestsRun>> parse_nccl_tests(std::string_view text, std::string_view name);

// True when the text holds an nccl-tests table (cheap check for triage).
bool looks_like_nccl_tests(std::string_view text);

}  // namespace ncdx::analyze::judge
