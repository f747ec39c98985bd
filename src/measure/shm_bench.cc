#include "measure/shm_bench.h"

#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <vector>

#include "core/strings.h"

namespace ncdx::measure {

Measurement measure_shm_write(const core::FileSystem& fs, const ShmOptions& opt) {
  const char* id = "shm.write";
  const char* title = "/dev/shm write throughput";
  if (!fs.is_live()) return skipped(id, title, "GB/s", "not the live machine (--root): nothing to measure");
  auto dir = fs.host_path("/dev/shm");
  struct statvfs sv {};
  if (statvfs(dir.c_str(), &sv) != 0)
    return skipped(id, title, "GB/s", "/dev/shm: " + std::string(std::strerror(errno)));
  const double total = static_cast<double>(sv.f_blocks) * sv.f_frsize;
  const double avail = static_cast<double>(sv.f_bavail) * sv.f_frsize;
  constexpr std::size_t chunk = std::size_t{4} << 20;
  std::size_t bytes = std::min<std::size_t>(opt.bytes, static_cast<std::size_t>(avail / 2));
  bytes -= bytes % chunk;
  std::string space = core::human_bytes(avail) + " free of " + core::human_bytes(total);
  if (bytes < chunk)
    return skipped(id, title, "GB/s", "/dev/shm has only " + space + ": too small to measure (and for NCCL's SHM transport)");

  std::string path = (dir / ("ncdx-shm-" + std::to_string(getpid()))).string();
  int fd = open(path.c_str(), O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0) return skipped(id, title, "GB/s", path + ": " + std::strerror(errno));
  unlink(path.c_str());
  std::vector<char> buf(chunk);
  for (std::size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<char>(i * 131 + 7);

  Measurement m;
  m.id = id;
  m.title = title;
  m.unit = "GB/s";
  double best = 0;
  for (int pass = 0; pass < std::max(1, opt.passes); ++pass) {
    if (ftruncate(fd, 0) != 0 || lseek(fd, 0, SEEK_SET) != 0) break;
    auto t0 = std::chrono::steady_clock::now();
    std::size_t done = 0;
    while (done < bytes) {
      ssize_t w = write(fd, buf.data(), chunk);
      if (w <= 0) {
        int e = errno;
        close(fd);
        m.status = core::Outcome::fail;
        m.detail = "write failed after " + core::human_bytes(static_cast<double>(done)) + ": " +
                   std::strerror(e) + " (/dev/shm: " + space + ")";
        return m;
      }
      done += static_cast<std::size_t>(w);
    }
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (s > 0) best = std::max(best, static_cast<double>(bytes) / s / 1e9);
  }
  close(fd);
  m.value = best;
  m.detail = "best of " + std::to_string(std::max(1, opt.passes)) + " passes writing " +
             core::human_bytes(static_cast<double>(bytes)) + " to tmpfs /dev/shm (" + space +
             "); no expected value (host memory bandwidth is not modelled)";
  judge(m);
  return m;
}

}  // namespace ncdx::measure
