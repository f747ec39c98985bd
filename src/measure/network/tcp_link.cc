#include "measure/network/tcp_link.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <netinet/in.h>
#include <linux/tcp.h>  // struct tcp_info with tcpi_segs_out (glibc's copy lacks it)
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace ncdx::measure {
namespace {

int ms_left(Deadline d) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(d - Clock::now()).count();
  return left <= 0 ? 0 : static_cast<int>(left > 1'000'000 ? 1'000'000 : left);
}

// Waits for `events` on fd until the deadline; true when ready.
bool wait_fd(int fd, short events, Deadline d) {
  for (;;) {
    pollfd p{fd, events, 0};
    int left = ms_left(d);
    int r = ::poll(&p, 1, left);
    if (r > 0) return true;
    if (r == 0) return false;
    if (errno != EINTR) return false;
  }
}

void set_nonblock(int fd) { ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL, 0) | O_NONBLOCK); }

void tune(int fd) {
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);  // ping-pong must not wait for Nagle
}

bool parse_addr(const std::string& addr, int port, sockaddr_in* sa) {
  std::memset(sa, 0, sizeof *sa);
  sa->sin_family = AF_INET;
  sa->sin_port = htons(static_cast<std::uint16_t>(port));
  return ::inet_pton(AF_INET, addr.c_str(), &sa->sin_addr) == 1;
}

std::string errtext(int e) { return std::strerror(e); }
}  // namespace

TcpSocket& TcpSocket::operator=(TcpSocket&& o) noexcept {
  if (this != &o) {
    close();
    fd_ = o.fd_;
    o.fd_ = -1;
  }
  return *this;
}

TcpSocket::~TcpSocket() { close(); }

void TcpSocket::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

std::string TcpSocket::listen_on(const std::string& addr, int port) {
  close();
  sockaddr_in sa;
  if (!parse_addr(addr, port, &sa)) return "not an IPv4 address: " + addr;
  fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd_ < 0) return "socket: " + errtext(errno);
  int one = 1;
  ::setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (::bind(fd_, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0) {
    std::string e = "bind " + addr + ":" + std::to_string(port) + ": " + errtext(errno);
    close();
    return e;
  }
  if (::listen(fd_, 64) != 0) {
    std::string e = "listen: " + errtext(errno);
    close();
    return e;
  }
  set_nonblock(fd_);
  return "";
}

int TcpSocket::local_port() const {
  sockaddr_in sa;
  socklen_t len = sizeof sa;
  if (fd_ < 0 || ::getsockname(fd_, reinterpret_cast<sockaddr*>(&sa), &len) != 0) return -1;
  return ntohs(sa.sin_port);
}

TcpSocket TcpSocket::accept_until(Deadline d, std::string* err) {
  for (;;) {
    int c = ::accept4(fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (c >= 0) {
      tune(c);
      return TcpSocket(c);
    }
    if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR && errno != ECONNABORTED) {
      *err = "accept: " + errtext(errno);
      return {};
    }
    if (!wait_fd(fd_, POLLIN, d)) {
      *err = "no connection from the peer before the deadline";
      return {};
    }
  }
}

std::string TcpSocket::connect_until(const std::string& addr, int port, Deadline d) {
  close();
  sockaddr_in sa;
  if (!parse_addr(addr, port, &sa)) return "not an IPv4 address: '" + addr + "'";
  fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd_ < 0) return "socket: " + errtext(errno);
  tune(fd_);
  // Refused connections are retried until the deadline: the peer may not be listening yet.
  for (;;) {
    int r = ::connect(fd_, reinterpret_cast<sockaddr*>(&sa), sizeof sa);
    if (r == 0) return "";
    if (errno == EINPROGRESS) {
      if (!wait_fd(fd_, POLLOUT, d)) {
        close();
        return "connect to " + addr + ":" + std::to_string(port) + " timed out";
      }
      int e = 0;
      socklen_t len = sizeof e;
      ::getsockopt(fd_, SOL_SOCKET, SO_ERROR, &e, &len);
      if (e == 0) return "";
      errno = e;
    }
    std::string why = "connect to " + addr + ":" + std::to_string(port) + ": " + errtext(errno);
    close();
    if (ms_left(d) < 50) return why;
    ::usleep(20'000);
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd_ < 0) return "socket: " + errtext(errno);
    tune(fd_);
  }
}

bool TcpSocket::send_all(const void* p, std::size_t n, Deadline d, std::string* err) {
  auto* b = static_cast<const char*>(p);
  while (n > 0) {
    ssize_t w = ::send(fd_, b, n, MSG_NOSIGNAL);
    if (w > 0) {
      b += w;
      n -= static_cast<std::size_t>(w);
      continue;
    }
    if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
      if (!wait_fd(fd_, POLLOUT, d)) {
        *err = "send timed out";
        return false;
      }
      continue;
    }
    *err = "send: " + errtext(errno);
    return false;
  }
  return true;
}

bool TcpSocket::recv_all(void* p, std::size_t n, Deadline d, std::string* err) {
  auto* b = static_cast<char*>(p);
  while (n > 0) {
    ssize_t r = ::recv(fd_, b, n, 0);
    if (r > 0) {
      b += r;
      n -= static_cast<std::size_t>(r);
      continue;
    }
    if (r == 0) {
      *err = "peer closed the connection";
      return false;
    }
    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
      if (!wait_fd(fd_, POLLIN, d)) {
        *err = "receive timed out";
        return false;
      }
      continue;
    }
    *err = "recv: " + errtext(errno);
    return false;
  }
  return true;
}

std::optional<TcpInfo> TcpSocket::info() const {
  tcp_info ti;
  socklen_t len = sizeof ti;
  std::memset(&ti, 0, sizeof ti);
  if (fd_ < 0 || ::getsockopt(fd_, IPPROTO_TCP, TCP_INFO, &ti, &len) != 0) return std::nullopt;
  TcpInfo out;
  out.retrans = ti.tcpi_total_retrans;
  out.segs_out = ti.tcpi_segs_out;
  return out;
}

}  // namespace ncdx::measure
