#include "core/openat2.h"

#include <cerrno>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace ncdx::core {

int openat2_beneath(int dirfd, const char* rel, int flags, std::uint64_t extra_resolve) {
  open_how how{};
  how.flags = static_cast<std::uint64_t>(flags | O_CLOEXEC);
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS | extra_resolve;
  // EAGAIN says nothing about the path: a rename or mount anywhere on the system raced a ".."
  // step of the lookup and the kernel could not prove it stayed below DIRFD; "the caller may
  // choose to retry" (openat2(2), ERRORS, man-pages 6.03). Every sysfs device link climbs
  // ("../../../devices/..."): measured here, 7 of 6.8 M such opens during a `ctest -j2` run and
  // 6.8 % beside a loop renaming files in /tmp were answered EAGAIN, and read as "absent" it
  // dropped a GPU from a replayed machine and links from a gather bundle
  // (tests/unit/core/fs_test.cc, safe_write_test.cc). Bounded: a rename storm can slow an open
  // down (each try costs microseconds), never spin it forever.
  constexpr int kTries = 1000;
  long fd = -1;
  for (int i = 0; i < kTries; ++i) {
    fd = ::syscall(SYS_openat2, dirfd, rel, &how, sizeof how);
    if (fd >= 0 || errno != EAGAIN) break;
  }
  return static_cast<int>(fd);
}

}  // namespace ncdx::core
