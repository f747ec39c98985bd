#pragma once
// Bounded work for every log read (issue #12): a decompression budget and progress.
//
// A 2 MB .zst can expand to 20 GB and keep triage busy for minutes with nothing on screen. Every
// ByteSource under LineReader is wrapped here: it counts decoded bytes (the "read N bytes" of the
// summary counts every byte, also the cut parts of long lines), stops a compressed stream whose
// output passes the budget — more than `max_ratio` times its compressed size once past
// `ratio_floor`, or more than `max_bytes` in all — with one clear warning naming the file and the
// flag that raises the limit, and, when progress is on, reports on stderr how far it got.
#include <cstdint>
#include <memory>
#include <string>

#include "analyze/logs/byte_source.h"

namespace ncdx::analyze {

struct DecompressBudget {
  std::uint64_t max_bytes = 64ull << 30;   // decoded bytes per compressed file (--max-decompressed)
  double max_ratio = 1000;                 // decoded/compressed (gzip's own ceiling is ~1032:1)
  std::uint64_t ratio_floor = 256ull << 20;  // the ratio applies past this many decoded bytes
};

// Process-wide settings, set once by the CLI from its flags.
void set_decompress_budget(const DecompressBudget& b);
const DecompressBudget& decompress_budget();
// --progress: report long reads on stderr even when stderr is not a TTY (one line per step).
void set_read_progress(bool on);

// Wraps src (named `name` in messages); `compressed` selects the budget (plain files have none).
std::unique_ptr<ByteSource> with_budget(std::unique_ptr<ByteSource> src, std::string name, bool compressed);

}  // namespace ncdx::analyze
