#include "analyze/triage/store_rendezvous.h"

#include <cctype>
#include <vector>

#include "analyze/triage/pair.h"
#include "core/strings.h"

namespace ncdx::analyze {
namespace {

constexpr std::size_t kMaxEndpoints = 64;  // distinct endpoints kept per side (a log names one or two)

bool all_digits(std::string_view s) {
  if (s.empty() || s.size() > 5) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

// "[::ffff:127.0.0.1]" -> "127.0.0.1"; names lower-cased. Empty when it cannot be a host.
std::string norm_host(std::string_view h) {
  h = core::trim(h);
  if (h.size() >= 2 && h.front() == '[' && h.back() == ']') h = h.substr(1, h.size() - 2);
  if (h.starts_with("::ffff:")) h.remove_prefix(7);
  if (h.empty() || h.size() > 255) return {};
  std::string out;
  for (char c : h) {
    if (c == ' ' || c == ',' || c == '(' || c == ')') return {};
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

std::string endpoint(std::string_view host, std::string_view port) {
  std::string h = norm_host(host);
  if (h.empty() || !all_digits(port)) return {};
  return h + ":" + std::string(port);
}

std::string_view digits_at(std::string_view s, std::size_t at) {
  std::size_t e = at;
  while (e < s.size() && s[e] >= '0' && s[e] <= '9') ++e;
  return s.substr(at, e - at);
}

// "(H, P)" after `key`: socket.cpp's "trying to connect to (H, P)" and "failed to connect to any
// network address of (H, P)".
std::string paren_endpoint(std::string_view text, std::string_view key) {
  auto at = text.find(key);
  if (at == std::string_view::npos) return {};
  auto rest = text.substr(at + key.size());
  auto comma = rest.find(", ");
  auto close = rest.find(')');
  if (comma == std::string_view::npos || close == std::string_view::npos || comma > close) return {};
  return endpoint(rest.substr(0, comma), core::trim(rest.substr(comma + 2, close - comma - 2)));
}

// "[H]:P" after `key`: "failed to connect to [localhost]:29500", "remote=[::ffff:10.0.0.1]:29500".
std::string bracket_endpoint(std::string_view text, std::string_view key) {
  auto at = text.find(key);
  if (at == std::string_view::npos) return {};
  auto rest = text.substr(at + key.size());
  auto close = rest.find("]:");
  if (close == std::string_view::npos || close > 300) return {};
  return endpoint(rest.substr(0, close), digits_at(rest, close + 2));
}

// "to host H:P " (TCPStore.cpp's "TCP client failed to connect/validate to host H:P - ...").
std::string host_colon_endpoint(std::string_view text, std::string_view key) {
  auto at = text.find(key);
  if (at == std::string_view::npos) return {};
  auto rest = text.substr(at + key.size());
  rest = rest.substr(0, std::min(rest.find(' '), rest.size()));
  auto colon = rest.rfind(':');
  if (colon == std::string_view::npos) return {};
  return endpoint(rest.substr(0, colon), rest.substr(colon + 1));
}

void note(std::map<std::string, StoreSide>& side, const std::string& ep, std::optional<int> rank, std::size_t file,
          long long line, std::string_view text) {
  auto it = side.find(ep);
  if (it == side.end()) {
    if (side.size() >= kMaxEndpoints) return;
    it = side.emplace(ep, StoreSide{}).first;
    it->second.file = file;
    it->second.line = line;
    it->second.text = std::string(text.substr(0, 400));
  }
  if (rank && it->second.ranks.size() < 100000) it->second.ranks.insert(*rank);
  else if (!rank) ++it->second.unranked;
}

// The rank a gloo address key names: the store keys of a gloo group are
// "<group prefix>/<device type>/<device index>/<rank>" (PyTorch's distributed_c10d.py wraps the
// store in PrefixStore(f"{device}/"), ProcessGroupGloo in one per device index, gloo appends the
// rank), e.g. "/default_pg/0//cpu//0/3". NCCL's unique-id key under the same device prefix is one
// counter ("/default_pg/0//cuda//0"): not a rank.
std::optional<int> gloo_key_rank(std::string_view key) {
  key = core::trim(key);
  std::size_t dev = key.rfind("/cpu/");
  std::size_t skip = 5;
  if (auto c = key.rfind("/cuda/"); c != std::string_view::npos && (dev == std::string_view::npos || c > dev))
    dev = c, skip = 6;
  if (dev == std::string_view::npos) return std::nullopt;
  std::vector<std::string_view> parts;
  for (auto part : core::split(key.substr(dev + skip), '/'))
    if (!part.empty()) parts.push_back(part);
  if (parts.size() != 2 || !all_digits(parts[0]) || !all_digits(parts[1])) return std::nullopt;
  auto v = core::parse_int(parts[1]);
  if (!v || *v < 0 || *v >= 1000000) return std::nullopt;
  return static_cast<int>(*v);
}

bool is_ip_literal(std::string_view host) {
  if (host.find(':') != std::string_view::npos) return true;  // IPv6
  for (char c : host)
    if (!(c == '.' || (c >= '0' && c <= '9'))) return false;
  return !host.empty();
}

// Two endpoints that cannot be the same store: another port, or two different IP literals (a name
// and an address may be the same host).
bool differ(const std::string& a, const std::string& b) {
  auto ca = a.rfind(':'), cb = b.rfind(':');
  if (a.substr(ca) != b.substr(cb)) return true;
  std::string_view ha(a.data(), ca), hb(b.data(), cb);
  return ha != hb && is_ip_literal(ha) && is_ip_literal(hb);
}

}  // namespace

void read_store_line(std::string_view text, std::optional<int> rank, std::size_t file, long long line,
                     StoreFacts& out) {
  const bool c10d = text.find("c10d]") != std::string_view::npos;
  if (c10d) {
    std::string failed = paren_endpoint(text, "trying to connect to (");
    if (failed.empty()) failed = paren_endpoint(text, "any network address of (");
    if (failed.empty()) failed = bracket_endpoint(text, "failed to connect to [");
    if (failed.empty() && text.find("failed to connect/validate") != std::string_view::npos)
      failed = host_colon_endpoint(text, " to host ");
    if (!failed.empty()) return note(out.failed, failed, rank, file, line, text);
    // A client waiting for the store's reply is connected to it ("waitForInput: ... SocketImpl(fd=3,
    // addr=..., remote=[H]:P) timed out"), as is one that logged its connect (INFO).
    std::string reached;
    if (text.find("waitForInput") != std::string_view::npos) reached = bracket_endpoint(text, "remote=[");
    if (reached.empty()) reached = bracket_endpoint(text, "client socket has connected to [");
    if (!reached.empty()) return note(out.reached, reached, rank, file, line, text);
  }
  if (auto k = text.find("wait timeout after "); k != std::string_view::npos) {
    if (auto keys = text.find("keys: ", k); keys != std::string_view::npos) {
      auto list = text.substr(keys + 6);
      auto first = list.substr(0, std::min(list.find(", "), list.size()));
      if (auto r = gloo_key_rank(first)) {
        auto [it, fresh] = out.awaited.try_emplace(*r);
        if (fresh) {
          it->second.file = file;
          it->second.line = line;
          it->second.text = std::string(text.substr(0, 400));
        }
        if (rank) it->second.ranks.insert(*rank);
        else ++it->second.unranked;
      }
    }
    return;
  }
  // TCPStore.cpp: "Timed out after 7 seconds waiting for clients. 2/3 clients joined."
  if (auto w = text.find("waiting for clients. "); w != std::string_view::npos) {
    auto rest = text.substr(w + 21);
    auto joined = digits_at(rest, 0);
    if (joined.empty() || joined.size() >= rest.size() || rest[joined.size()] != '/') return;
    auto expected = digits_at(rest, joined.size() + 1);
    auto j = core::parse_int(joined), n = core::parse_int(expected);
    if (!j || !n) return;
    out.clients_joined = static_cast<int>(*j);
    out.clients_expected = static_cast<int>(*n);
    StoreSide s;
    if (rank) s.ranks.insert(*rank);
    else s.unranked = 1;
    s.file = file;
    s.line = line;
    s.text = std::string(text.substr(0, 400));
    out.server = std::move(s);
  }
}

std::optional<StoreMismatch> store_endpoint_mismatch(const StoreFacts& s, std::optional<int> awaited) {
  for (const auto& [bad, tried] : s.failed) {
    if (s.reached.count(bad)) continue;  // others reached it: a transient failure, not another store
    for (const auto& [good, reached] : s.reached) {
      if (!differ(bad, good)) continue;
      StoreMismatch m{bad, good, {}, &tried, &reached};
      for (int r : tried.ranks)
        if (!reached.ranks.count(r)) m.culprits.insert(r);
      if (m.culprits.empty() && tried.ranks.empty() && awaited) m.culprits.insert(*awaited);
      return m;
    }
  }
  return std::nullopt;
}

std::optional<StoreAlone> store_server_alone(const StoreFacts& s, bool agent_store) {
  if (!s.server || s.clients_joined != 1 || !s.clients_expected || *s.clients_expected < 3) return std::nullopt;
  if (!s.reached.empty() || s.failed.size() != 1) return std::nullopt;
  const auto& [ep, tried] = *s.failed.begin();
  // Ranked lines must show at least two clients agreeing; lines without a rank are taken as the
  // N-1 clients the server says are missing.
  if (!tried.ranks.empty() && tried.ranks.size() < 2) return std::nullopt;
  StoreAlone a{ep, tried.ranks, *s.clients_expected, std::nullopt, &tried, &*s.server};
  if (!s.server->ranks.empty()) a.server = *s.server->ranks.begin();
  else if (!agent_store) a.server = 0;
  if (a.server && a.clients.count(*a.server)) return std::nullopt;
  return a;
}

std::optional<StorePair> store_pair(const StoreFacts& s, bool agent_store, const std::set<int>& world) {
  if (!s.server || s.clients_joined != 1 || s.clients_expected != 2) return std::nullopt;
  if (!s.reached.empty() || s.failed.size() != 1) return std::nullopt;
  const auto& [ep, tried] = *s.failed.begin();
  std::optional<int> server;
  if (s.server->ranks.size() == 1) server = *s.server->ranks.begin();
  else if (s.server->ranks.empty() && !agent_store) server = 0;
  if (!server) return std::nullopt;
  if (!two_rank_job(world) || !world.count(*server)) return std::nullopt;
  std::set<int> client = tried.ranks;
  if (client.empty()) client.insert(1 - *server);
  if (client.size() != 1 || client.count(*server)) return std::nullopt;
  return StorePair{ep, *server, *client.begin(), &*s.server, &tried};
}

std::optional<int> awaited_rank(const StoreFacts& s, bool agent_store) {
  if (s.awaited.size() != 1) return std::nullopt;  // several ranks missing: the lowest is named, not all
  int r = s.awaited.begin()->first;
  if (r == 0 && !agent_store) return std::nullopt;
  // A rank that waited for itself is no evidence (it publishes its own key before it waits).
  if (s.awaited.begin()->second.ranks.count(r)) return std::nullopt;
  return r;
}

}  // namespace ncdx::analyze
