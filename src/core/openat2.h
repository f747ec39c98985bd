#pragma once
// openat2(2) below a directory, the one place that calls it: FileSystem's reads under a replayed
// --root (core/fs.cc) and SafeDir's writes (core/safe_write.cc) both resolve paths with it.
#include <cstdint>

namespace ncdx::core {

// Opens REL below DIRFD with RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS | EXTRA_RESOLVE (O_CLOEXEC
// added to FLAGS). Returns the fd, or -1 with errno set: EXDEV when the path would leave DIRFD,
// ENOSYS when the kernel has no openat2 (Linux < 5.6). A spurious EAGAIN is retried here (.cc).
int openat2_beneath(int dirfd, const char* rel, int flags, std::uint64_t extra_resolve = 0);

}  // namespace ncdx::core
