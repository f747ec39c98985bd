#include "measure/storage_bench.h"

#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "core/strings.h"

namespace ncdx::measure {

namespace {

struct AlignedFree {
  void operator()(char* p) const { std::free(p); }
};

std::string err(const std::string& what) { return what + ": " + std::strerror(errno); }

// Opens with O_DIRECT when possible; `direct` says which one happened.
int open_maybe_direct(const std::string& path, int flags, bool& direct) {
  int fd = open(path.c_str(), flags | O_DIRECT | O_CLOEXEC, 0600);
  direct = fd >= 0;
  if (fd < 0 && (errno == EINVAL || errno == EOPNOTSUPP)) fd = open(path.c_str(), flags | O_CLOEXEC, 0600);
  return fd;
}

}  // namespace

std::vector<Measurement> measure_storage(const StorageOptions& opt) {
  const char* wid = "storage.write";
  const char* rid = "storage.read";
  std::string wt = "sequential write + fsync of " + opt.dir;
  std::string rt = "sequential read of " + opt.dir;
  auto both_skipped = [&](const std::string& why) {
    return std::vector<Measurement>{skipped(wid, wt, "GB/s", why), skipped(rid, rt, "GB/s", why)};
  };
  struct statvfs sv {};
  if (opt.dir.empty() || statvfs(opt.dir.c_str(), &sv) != 0) return both_skipped(err(opt.dir.empty() ? "no directory" : opt.dir));
  const std::size_t block = std::max<std::size_t>(4096, opt.block - opt.block % 4096);
  const double avail = static_cast<double>(sv.f_bavail) * sv.f_frsize;
  std::size_t bytes = std::min<std::size_t>(opt.bytes, static_cast<std::size_t>(avail / 4));
  bytes -= bytes % block;
  if (bytes < block) return both_skipped(opt.dir + " has only " + core::human_bytes(avail) + " free");

  char* raw = nullptr;
  if (posix_memalign(reinterpret_cast<void**>(&raw), 4096, block) != 0) return both_skipped("out of memory");
  std::unique_ptr<char, AlignedFree> buf(raw);
  std::uint64_t x = 0x9E3779B97F4A7C15ull;  // xorshift: non-repeating, incompressible content
  for (std::size_t i = 0; i + 8 <= block; i += 8) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    std::memcpy(raw + i, &x, 8);
  }
  std::string path = opt.dir + "/.ncdx-storage-" + std::to_string(getpid()) + ".tmp";
  bool wdirect = false;
  int fd = open_maybe_direct(path, O_CREAT | O_EXCL | O_WRONLY, wdirect);
  if (fd < 0) return both_skipped(err(path));

  std::vector<Measurement> out(2);
  out[0].id = wid, out[0].title = wt, out[0].unit = "GB/s";
  out[1].id = rid, out[1].title = rt, out[1].unit = "GB/s";
  auto t0 = std::chrono::steady_clock::now();
  std::size_t done = 0;
  for (; done < bytes; done += block)
    if (write(fd, raw, block) != static_cast<ssize_t>(block)) break;
  bool synced = done == bytes && fsync(fd) == 0;
  double ws = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::string werr = synced ? "" : err("write/fsync after " + core::human_bytes(static_cast<double>(done)));
  close(fd);
  if (!synced) {
    unlink(path.c_str());
    out[0].status = core::Outcome::fail;
    out[0].detail = werr;
    out[1] = skipped(rid, rt, "GB/s", "the write failed");
    return out;
  }
  out[0].value = static_cast<double>(bytes) / ws / 1e9;
  out[0].detail = core::human_bytes(static_cast<double>(bytes)) + " in " + core::human_bytes(static_cast<double>(block)) +
                  " blocks, " + (wdirect ? "O_DIRECT" : "buffered (O_DIRECT refused)") + ", timed through fsync";
  judge(out[0]);

  bool rdirect = false;
  fd = open_maybe_direct(path, O_RDONLY, rdirect);
  if (fd < 0) {
    out[1] = skipped(rid, rt, "GB/s", err(path));
  } else {
    if (!rdirect) posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    t0 = std::chrono::steady_clock::now();
    std::size_t got = 0;
    for (;;) {
      ssize_t r = read(fd, raw, block);
      if (r <= 0) break;
      got += static_cast<std::size_t>(r);
    }
    double rs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    close(fd);
    if (got != bytes) {
      out[1].status = core::Outcome::fail;
      out[1].detail = "read back " + core::human_bytes(static_cast<double>(got)) + " of " +
                      core::human_bytes(static_cast<double>(bytes));
    } else {
      out[1].value = static_cast<double>(bytes) / rs / 1e9;
      out[1].detail = rdirect ? "O_DIRECT" : "buffered after posix_fadvise(DONTNEED): a device/server cache may still serve it";
      judge(out[1]);
    }
  }
  unlink(path.c_str());
  return out;
}

}  // namespace ncdx::measure
