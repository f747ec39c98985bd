// `ncdx report`: the saved JSON results of any ncdx command, read back and put in one shape for
// the renderers — judged rows (a check, an audit/env/compat row, a finding) with their outcome, and
// the matrices they carry (a doctor copy-bandwidth matrix, a cluster latency matrix, a timeline
// heatmap), found by shape rather than by command, so results of commands added later render too.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "core/outcome.h"
#include "core/result.h"

namespace ncdx::analyze {

// One judged row, whatever command made it.
struct ResultItem {
  std::string status;  // PASS | INFO | WARN | FAIL | SKIP (findings: severity error/critical → FAIL, warn → WARN, info → INFO)
  std::string id;      // check id, rule id, parameter, finding id
  std::string title;   // one line
  std::string detail;  // evidence / why / summary (may be empty)
  std::string fix;     // first fix or recommendation (may be empty)
};

// A matrix found in a result: numbers (heatmap) or short labels (a topology table).
struct ResultMatrix {
  std::string title;  // JSON path, e.g. "network.latency_us"
  std::string unit;   // from the key's suffix: "µs", "Gb/s", "GB/s", "%", "" when unknown
  std::vector<std::string> row_labels, col_labels;
  std::vector<std::vector<std::optional<double>>> values;  // numeric matrices
  std::vector<std::vector<std::string>> cells;             // label matrices (values empty)
};

struct ResultDoc {
  std::string path;     // as given
  std::string schema;   // "ncdx.doctor/1"
  std::string command;  // "doctor"
  std::string headline; // triage's verdict, doctor's host…; may be empty
  std::vector<ResultItem> items;      // failures first, then WARN, INFO, PASS, SKIP; stable within
  std::vector<ResultMatrix> matrices;
  int exit_code = 0;    // 0/1/2 from the worst item (SKIP and INFO count as healthy)
  // The document's own `summary` {status, pass, info, warn, fail, skip} (every judging command
  // writes one): what the producer judged, which may be more than the items listed here (doctor's
  // skipped measurements, topo's pick warnings). Absent in results of older ncdx versions.
  std::optional<core::Tally> summary;
};

// Reads and normalises each file. Missing → 66; unreadable JSON, or JSON that is not an ncdx
// result ("schema": "ncdx.<command>/<n>") → 65 with the file name.
core::Result<std::vector<ResultDoc>> load_results(const std::vector<std::string>& paths);

// The same normalisation on a parsed document (tests, and stdin).
core::Result<ResultDoc> normalise_result(const nlohmann::json& doc, const std::string& path);

}  // namespace ncdx::analyze
