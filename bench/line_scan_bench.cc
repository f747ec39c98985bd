// Throughput of the input layer alone: LineReader (plain / gzip / zstd) and LineReader +
// parse_prefix, over the files given. Prints MB/s of decoded text for each mode.
// Usage: line_scan_bench FILE...   (e.g. bench/out/nccl_1G.log bench/out/nccl_1G.log.zst)
#include <chrono>
#include <cstdio>
#include <string_view>

#include "analyze/logs/log_line.h"
#include "analyze/logs/log_source.h"

namespace {

struct Totals {
  unsigned long long lines = 0, bytes = 0, nccl = 0, ranked = 0;
  double seconds = 0;
};

Totals scan(const char* path, bool parse) {
  Totals t;
  auto start = std::chrono::steady_clock::now();
  auto r = ncdx::analyze::LineReader::open(path);
  if (!r.ok()) {
    std::fprintf(stderr, "%s\n", r.status().message().c_str());
    return t;
  }
  std::string_view line;
  while ((*r)->next(line)) {
    ++t.lines;
    t.bytes += line.size() + 1;
    if (parse) {
      auto p = ncdx::analyze::parse_prefix(line);
      t.nccl += p.nccl;
      t.ranked += p.rank.has_value();
    }
  }
  if (!(*r)->status().is_ok()) std::fprintf(stderr, "%s\n", (*r)->status().message().c_str());
  t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: line_scan_bench FILE...\n");
    return 64;
  }
  for (int i = 1; i < argc; ++i) {
    for (bool parse : {false, true}) {
      Totals best;
      for (int rep = 0; rep < 3; ++rep) {  // best of 3: the first run also warms the page cache
        Totals t = scan(argv[i], parse);
        if (rep == 0 || t.seconds < best.seconds) best = t;
      }
      std::printf("%-40s %-18s %10llu lines %8.1f MB in %7.3f s = %8.1f MB/s%s\n", argv[i],
                  parse ? "read+parse_prefix" : "read", best.lines, best.bytes / 1e6, best.seconds,
                  best.bytes / 1e6 / best.seconds,
                  parse ? (" (nccl " + std::to_string(best.nccl) + ", ranked " + std::to_string(best.ranked) + ")").c_str() : "");
    }
  }
  return 0;
}
