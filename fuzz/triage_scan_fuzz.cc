// Fuzzes the signature engine and everything triage does with its matches: prefix parsing, fact
// extraction (watchdog, COLL, rings, trees, transports), refinements across nearby lines, the
// derived findings and the verdict. The input is split into lines; a 0x01 byte starts a second
// "file" so per-file state (tracebacks, refinement windows, file → host) is exercised too.
// Checks: no crash or sanitizer report, and the verdict is one of DESIGN.md's classes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "analyze/logs/log_source.h"
#include "analyze/triage/verdict.h"
#include "analyze/triage/scan.h"
#include "core/finding.h"
#include "knowledge/signatures.h"

namespace {
const ncdx::knowledge::SignatureSet& sigs() {
  static auto s = ncdx::knowledge::SignatureSet::load_embedded();
  if (!s.ok()) std::abort();
  return *s;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  ncdx::analyze::Scanner scan(sigs());
  std::size_t file = scan.add_file("rank0.log", ncdx::analyze::hints_from_path("rank0.log"));
  long long lineno = 0;
  while (!in.empty()) {
    auto nl = in.find('\n');
    auto line = in.substr(0, nl);
    if (auto sep = line.find('\x01'); sep != std::string_view::npos) {
      scan.feed(file, ++lineno, line.substr(0, sep));
      file = scan.add_file("node2.12345.log", ncdx::analyze::hints_from_path("node2.12345.log"));
      lineno = 0;
      line = line.substr(sep + 1);
    }
    scan.feed(file, ++lineno, line);
    if (nl == std::string_view::npos) break;
    in.remove_prefix(nl + 1);
  }
  auto r = ncdx::analyze::correlate(scan.finish(), sigs(), {});
  if (!ncdx::core::is_failure_class(r.verdict.klass)) std::abort();
  for (const auto& f : r.findings)
    if (!ncdx::core::is_failure_class(f.klass)) std::abort();
  return 0;
}
