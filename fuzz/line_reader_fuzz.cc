// Fuzzes LineReader end to end: the input is written to a temp file and read back, which covers
// gzip/zstd detection, decompression errors and line splitting. A small max_line exercises the
// cut-and-skip path. Lines must stay within max_line and the reader must end.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "analyze/log_source.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static std::string path = [] {
    char tmpl[] = "/tmp/ncdx-line-reader-fuzz-XXXXXX";
    int fd = ::mkstemp(tmpl);
    if (fd >= 0) ::close(fd);
    return std::string(tmpl);
  }();
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return 0;
  std::fwrite(data, 1, size, f);
  std::fclose(f);
  const std::size_t max_line = size > 0 ? 1 + data[0] % 64 : 16;
  auto r = ncdx::analyze::LineReader::open(path, max_line);
  if (!r.ok()) std::abort();  // the file exists: opening it cannot fail
  std::string_view line;
  long long n = 0;
  while ((*r)->next(line)) {
    if (line.size() > max_line) std::abort();
    if ((*r)->line_number() != ++n) std::abort();
  }
  (void)(*r)->status();
  return 0;
}
