// Fuzzes LineReader end to end: the input is written to a file and read back, which covers
// gzip/zstd detection, decompression errors and line splitting. A small max_line exercises the
// cut-and-skip path. Lines must stay within max_line and the reader must end.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "analyze/logs/log_source.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // An in-memory file (memfd) reached by path, so LineReader::open runs as on a real file.
  static const int fd = ::memfd_create("ncdx-line-reader-fuzz", 0);
  static const std::string path = "/proc/self/fd/" + std::to_string(fd);
  if (fd < 0 || ::ftruncate(fd, 0) != 0) return 0;
  if (size > 0 && ::pwrite(fd, data, size, 0) != static_cast<ssize_t>(size)) return 0;
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
