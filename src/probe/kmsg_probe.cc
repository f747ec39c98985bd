#include "probe/kmsg_probe.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <regex>
#include <unistd.h>

#include "core/strings.h"

namespace ncdx::probe {

std::optional<XidEvent> parse_xid_line(std::string_view message) {
  // "NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, name=python, GPU has fallen off the bus."
  static const std::regex re(R"(NVRM: Xid \((?:PCI:)?([0-9a-fA-F:.]+)\): (\d+),?\s*(.*))");
  std::match_results<std::string_view::const_iterator> m;
  if (!std::regex_search(message.begin(), message.end(), m, re)) return std::nullopt;
  XidEvent e;
  e.pci = core::to_lower(m[1].str());
  auto x = core::parse_int(m[2].str());
  if (!x) return std::nullopt;
  e.xid = static_cast<int>(*x);
  e.text = std::string(core::trim(std::string_view(&*m[0].first, static_cast<std::size_t>(m[0].length()))));
  if (e.text.size() > 300) e.text = e.text.substr(0, 300);
  return e;
}

KernelLog parse_kernel_log(std::string_view text) {
  KernelLog log;
  int lines = 0;
  for (auto line : core::split(text, '\n')) {
    if (line.empty() || line.starts_with(' ')) continue;  // kmsg continuation ("KEY=value")
    ++lines;
    std::optional<double> ts;
    std::string_view msg = line;
    auto semi = line.find(';');
    auto f = core::split(line.substr(0, semi == std::string_view::npos ? 0 : semi), ',');
    if (semi != std::string_view::npos && f.size() >= 3 && core::parse_int(f[0])) {
      if (auto us = core::parse_int(f[2])) ts = static_cast<double>(*us) / 1e6;
      msg = line.substr(semi + 1);
    } else if (line.starts_with('[')) {
      auto close = line.find(']');
      if (close != std::string_view::npos) {
        ts = core::parse_double(core::trim(line.substr(1, close - 1)));
        msg = line.substr(close + 1);
      }
    }
    if (auto e = parse_xid_line(msg)) {
      e->time_s = ts;
      log.xids.push_back(std::move(*e));
    }
  }
  log.lines = lines;
  log.source = {ProbeState::ok, ""};
  return log;
}

KernelLog probe_kmsg(const SysReader& r, std::string* raw_out) {
  std::string text;
  std::string origin;
  if (r.live()) {
    int fd = ::open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
      KernelLog log;
      log.source = {ProbeState::failed, std::string("/dev/kmsg: ") + std::strerror(errno)};
      return log;
    }
    // Each read returns one record; EAGAIN marks the end of the buffer. EPIPE means records
    // were overwritten while reading: keep going from the next one.
    char buf[8192];
    std::size_t total = 0;
    for (int guard = 0; guard < 200000 && total < (64u << 20); ++guard) {
      ssize_t n = ::read(fd, buf, sizeof buf);
      if (n < 0 && errno == EPIPE) continue;
      if (n <= 0) break;
      text.append(buf, static_cast<std::size_t>(n));
      if (text.back() != '\n') text.push_back('\n');
      total += static_cast<std::size_t>(n);
    }
    ::close(fd);
    origin = "/dev/kmsg";
  } else {
    for (const char* p : {"/dev/kmsg", "/var/log/dmesg", "/kmsg.txt"}) {
      if (auto t = r.raw(p, 64u << 20)) {
        text = std::move(*t);
        origin = p;
        break;
      }
    }
    if (origin.empty()) {
      KernelLog log;
      log.source = {ProbeState::absent, "no /dev/kmsg or /var/log/dmesg in the replayed tree"};
      return log;
    }
  }
  if (raw_out) *raw_out = text;
  auto log = parse_kernel_log(text);
  log.source.detail = origin;
  return log;
}

}  // namespace ncdx::probe
