#pragma once
// TCP with a deadline on every operation: the network matrix must never hang on a dead or
// partitioned peer (docs/CLUSTER.md "Network matrix"). Sockets are non-blocking
// and every wait is a poll() bounded by the caller's deadline.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace ncdx::measure {

using Clock = std::chrono::steady_clock;
using Deadline = Clock::time_point;

struct TcpInfo {
  std::uint32_t retrans = 0, segs_out = 0;
};

class TcpSocket {
 public:
  TcpSocket() = default;
  explicit TcpSocket(int fd) : fd_(fd) {}
  TcpSocket(const TcpSocket&) = delete;
  TcpSocket& operator=(const TcpSocket&) = delete;
  TcpSocket(TcpSocket&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  TcpSocket& operator=(TcpSocket&& o) noexcept;
  ~TcpSocket();
  bool valid() const { return fd_ >= 0; }
  int fd() const { return fd_; }
  void close();

  // Listening socket on addr:port (port 0 = ephemeral); "" on success, else the error.
  std::string listen_on(const std::string& addr, int port);
  int local_port() const;
  // A connection accepted before the deadline, or an invalid socket (error in *err).
  TcpSocket accept_until(Deadline d, std::string* err);
  // Connects before the deadline; "" on success, else why ("connection refused", "timed out").
  std::string connect_until(const std::string& addr, int port, Deadline d);
  // Whole buffers; false on timeout, reset or EOF (why in *err).
  bool send_all(const void* p, std::size_t n, Deadline d, std::string* err);
  bool recv_all(void* p, std::size_t n, Deadline d, std::string* err);
  std::optional<TcpInfo> info() const;

 private:
  int fd_ = -1;
};

}  // namespace ncdx::measure
