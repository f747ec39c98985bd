#pragma once
// Runs the triage pipeline in-process, the way `ncdx triage` does, for tests.
#include <cctype>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "analyze/logs/log_source.h"
#include "analyze/triage/verdict.h"
#include "analyze/triage/scan.h"
#include "knowledge/signatures.h"
#include "support/test_paths.h"

namespace ncdx::testing {

inline const knowledge::SignatureSet& signatures() {
  static auto sigs = knowledge::SignatureSet::load_embedded();
  return *sigs;
}

inline analyze::TriageResult triage_paths(const std::vector<std::string>& paths,
                                          analyze::CorrelateOptions opts = {}) {
  analyze::Scanner s(signatures());
  auto ex = analyze::expand_inputs(paths);
  for (const auto& f : ex.files) s.scan_file(f);
  return analyze::correlate(s.finish(), signatures(), opts);
}

// The text of tests/data/<rel> (a copied real log), empty when missing.
inline std::string test_data_text(const std::string& rel) {
  std::ifstream in(std::string(NCDX_TEST_DATA) + "/" + rel);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The name a bank case's log is triaged under. Not the case id: ids name their labels
// ("h7-...-rank2-gloo"), and a file name is a rank source (analyze/logs/path_hints.cc: "rank2"
// would make every line rank 2's), so an id-named file leaks the answer into the input.
inline const std::string kPastedName = "pasted.log";

// One in-memory "file" (a corpus case's log).
inline analyze::TriageResult triage_text(const std::string& name, const std::string& text,
                                         analyze::CorrelateOptions opts = {}) {
  analyze::Scanner s(signatures());
  auto f = s.add_file(name, analyze::hints_from_path(name));
  std::istringstream in(text);
  std::string line;
  long long n = 0;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    s.feed(f, ++n, line);
  }
  return analyze::correlate(s.finish(), signatures(), opts);
}

// Lines that are each a verdict of their own: the signature that must name it and its class
// (the "new signatures" checks of the holdout mechanism tests).
struct VerdictCase {
  const char* line;
  const char* id;
  const char* klass;
};
inline void expect_verdicts(const std::vector<VerdictCase>& cases) {
  for (const auto& c : cases) {
    auto r = triage_text("a.log", c.line);
    EXPECT_EQ(r.verdict.id, c.id) << c.line;
    EXPECT_EQ(r.verdict.klass, c.klass) << c.line;
  }
}

// A case id as a gtest parameter name ("nccl-241" -> "nccl_241").
inline std::string param_name(std::string id) {
  for (auto& ch : id)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return id;
}

// Expected class -> verdict class -> count, printed for the issue notes.
using Confusion = std::map<std::string, std::map<std::string, int>>;
inline void print_confusion(const char* what, const Confusion& m, std::size_t right, std::size_t total) {
  std::printf("%s accuracy: %zu/%zu\n", what, right, total);
  for (const auto& [want, row] : m) {
    std::printf("  %-18s", want.c_str());
    for (const auto& [got, n] : row) std::printf(" %s:%d", got.c_str(), n);
    std::printf("\n");
  }
}

}  // namespace ncdx::testing
