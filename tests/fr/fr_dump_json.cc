// Test driver: prints the JSON that ncdx reads from one Flight Recorder dump file (pickle or
// JSON, by content), so tests/fr/oracle_compare.py can compare it with Python's own reading.
// `--model PATH` prints the typed model of fr_reader instead; `--analyze PATH` the analysis
// (summary table on stderr, JSON on stdout). Bad input: message on stderr, exit 65.
#include <cstdio>
#include <iostream>
#include <string>

#include "analyze/fr/analyze.h"
#include "report/fr_summary.h"
#include "analyze/fr/reader.h"
#include "core/json.h"

int main(int argc, char** argv) {
  using namespace ncdx;
  bool model = argc == 3 && std::string(argv[1]) == "--model";
  bool analyze = argc == 3 && std::string(argv[1]) == "--analyze";
  if (argc != 2 && !model && !analyze) {
    std::cerr << "usage: fr_dump_json [--model|--analyze] PATH\n";
    return 64;
  }
  std::string path = argv[argc - 1];
  if (analyze) {
    auto d = analyze::read_fr_path(path);
    if (!d) {
      std::cerr << d.status().message() << "\n";
      return core::to_int(d.status().code());
    }
    auto a = analyze::analyze_fr(*d);
    std::cerr << report::format_fr_summary(a);
    std::cout << core::dump_json(analyze::to_json(a));
    return 0;
  }
  if (model) {
    auto d = analyze::read_fr_path(path);
    if (!d) {
      std::cerr << d.status().message() << "\n";
      return core::to_int(d.status().code());
    }
    std::cout << core::dump_json(analyze::to_json(*d));
    return 0;
  }
  auto raw = analyze::read_fr_raw(path);
  if (!raw) {
    std::cerr << raw.status().message() << "\n";
    return core::to_int(raw.status().code());
  }
  std::cout << core::dump_json(*raw);
  return 0;
}
