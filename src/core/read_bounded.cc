#include "core/read_bounded.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ncdx::core {

Result<std::string> read_bounded(const std::string& path, std::size_t max_bytes, const std::string& what) {
  int fd = path == "-" ? 0 : ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return Status::not_found(path + ": cannot open");
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    if (fd != 0) ::close(fd);
    return Status::not_found(path + ": is a directory");
  }
  std::string data;
  char buf[1 << 16];
  for (;;) {
    auto n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int e = errno;
      if (fd != 0) ::close(fd);
      return Status::not_found(path + ": read error (" + std::strerror(e) + ")");
    }
    if (n == 0) break;
    data.append(buf, static_cast<std::size_t>(n));
    if (data.size() > max_bytes) {
      if (fd != 0) ::close(fd);
      auto mib = max_bytes >> 20;
      return Status::bad_input(path + ": larger than " + (mib ? std::to_string(mib) + " MiB" : std::to_string(max_bytes) + " bytes") +
                               ", " + what);
    }
  }
  if (fd != 0) ::close(fd);
  return data;
}

}  // namespace ncdx::core
