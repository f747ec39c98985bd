// Reads a Flight Recorder dump directory (or file, or prefix) with the ncdx reader only —
// analyze::read_fr_path, no analysis, no report — and prints what it read, so
// bench/fr_vs_python.sh can time the reader against Python's pickle.load of the same files.
// Usage: fr_read_bench PATH [--keep-frames]
#include <cstdio>
#include <cstring>

#include "analyze/fr/reader.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: fr_read_bench PATH [--keep-frames]\n");
    return 64;
  }
  ncdx::analyze::FrReadLimits limits;
  limits.keep_all_frames = argc > 2 && std::strcmp(argv[2], "--keep-frames") == 0;
  auto d = ncdx::analyze::read_fr_path(argv[1], limits);
  if (!d) {
    std::fprintf(stderr, "fr_read_bench: %s\n", d.status().message().c_str());
    return ncdx::core::to_int(d.status().code());
  }
  std::size_t entries = 0, frames = 0, groups = 0;
  for (const auto& r : d->ranks) {
    entries += r.entries.size();
    groups += r.pg_config.size();
    for (const auto& e : r.entries)
      if (e.frames) frames += e.frames->size();
  }
  std::printf("%zu dumps, %zu entries, %zu pg_config rows, %zu frames kept\n", d->ranks.size(), entries, groups,
              frames);
  return 0;
}
