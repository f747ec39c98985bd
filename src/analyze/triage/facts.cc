#include "analyze/triage/facts.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstring>

#include "core/semver.h"
#include "core/strings.h"

namespace ncdx::analyze {
namespace {

bool has(std::string_view s, std::string_view needle) { return s.find(needle) != std::string_view::npos; }

// Bounds: topology facts are a summary, never a copy of a 10k-rank log.
constexpr std::size_t kMaxPeerPairs = 4096;
constexpr std::size_t kMaxRings = 64;
constexpr std::size_t kMaxTreeRanks = 4096;

// Integer right after `key` in `s` (decimal, optional minus), if present.
std::optional<long long> int_after(std::string_view s, std::string_view key, int base = 10) {
  auto p = s.find(key);
  if (p == std::string_view::npos) return std::nullopt;
  p += key.size();
  while (p < s.size() && s[p] == ' ') ++p;
  long long v = 0;
  const char* b = s.data() + p;
  const char* e = s.data() + s.size();
  if (base == 16 && e - b > 2 && b[0] == '0' && (b[1] == 'x' || b[1] == 'X')) b += 2;
  auto [ptr, ec] = std::from_chars(b, e, v, base);
  if (ec != std::errc() || ptr == b) return std::nullopt;
  return v;
}

// int_after(s, key, 16) for a `s` that starts with its key (`key_size` bytes): the same value, and
// in `end` the offset just past the number (0 when there is none).
std::optional<long long> hex_after_key(std::string_view s, std::size_t key_size, std::size_t& end) {
  auto p = key_size;
  while (p < s.size() && s[p] == ' ') ++p;
  long long v = 0;
  const char* b = s.data() + p;
  const char* e = s.data() + s.size();
  if (e - b > 2 && b[0] == '0' && (b[1] == 'x' || b[1] == 'X')) b += 2;
  // Up to 15 hex digits cannot overflow: read them here (std::from_chars costs ~4x as much per
  // call); a sign or a longer run goes to std::from_chars as before.
  const char* q = b;
  unsigned long long u = 0;
  for (; q < e && q - b < 16; ++q) {
    const char c = *q;
    int d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
    else break;
    u = u * 16 + static_cast<unsigned>(d);
  }
  if (q > b && q - b < 16) {
    end = static_cast<std::size_t>(q - s.data());
    return static_cast<long long>(u);
  }
  auto [ptr, ec] = std::from_chars(b, e, v, 16);
  if (ec != std::errc() || ptr == b) return std::nullopt;
  end = static_cast<std::size_t>(ptr - s.data());
  return v;
}

// Word (run of non-space, non-separator chars) right after `key`.
std::string_view word_after(std::string_view s, std::string_view key) {
  auto p = s.find(key);
  if (p == std::string_view::npos) return {};
  p += key.size();
  while (p < s.size() && s[p] == ' ') ++p;
  auto q = p;
  while (q < s.size() && s[q] != ' ' && s[q] != ',' && s[q] != ')' && s[q] != ';') ++q;
  return s.substr(p, q - p);
}

void parse_version(std::string_view msg, ProcessFacts& proc) {
  auto v = word_after(msg, "NCCL version ");
  if (v.empty() || !std::isdigit(static_cast<unsigned char>(v[0]))) return;
  auto plus = v.find('+');
  proc.nccl_version = core::canonical_nccl_version(v.substr(0, plus));
  if (plus != std::string_view::npos) proc.nccl_cuda = std::string(v.substr(plus + 1));
}

void parse_init(std::string_view msg, ProcessFacts& proc) {
  bool complete = has(msg, "Init COMPLETE");
  if (complete) proc.init_complete = true;
  else proc.init_start = true;
  auto r = int_after(msg, " rank ");
  auto n = int_after(msg, " nranks ");
  if (!n) n = int_after(msg, " nRanks ");
  // A process owns many communicators; its global rank is its rank in the largest one (the
  // default process group spans the world).
  if (r && n && (!proc.nranks || *n > *proc.nranks)) {
    proc.rank = static_cast<int>(*r);
    proc.nranks = static_cast<int>(*n);
  }
  if (auto d = int_after(msg, " cudaDev ")) proc.cuda_devs.insert(static_cast<int>(*d));
}

void parse_transport(std::string_view msg, TopologyFacts& topo) {
  auto v = msg.find(" via ");
  if (v == std::string_view::npos) return;
  auto kind = msg.substr(v + 5);
  auto sp = kind.find(' ');
  if (sp != std::string_view::npos) kind = kind.substr(0, sp);
  // Keep the transport family and its mode (P2P/CUMEM, SHM/direct, NET/IB, NET/Socket, ...) but
  // drop device numbers so the map stays small.
  std::string key;
  int parts = 0;
  for (auto part_start = std::size_t{0}; part_start <= kind.size() && parts < 3;) {
    auto slash = kind.find('/', part_start);
    auto part = kind.substr(part_start, slash == std::string_view::npos ? std::string_view::npos : slash - part_start);
    if (part.empty() || std::isdigit(static_cast<unsigned char>(part[0]))) {
      if (parts >= 2) break;
    } else {
      if (!key.empty()) key += '/';
      key += part;
    }
    ++parts;
    if (slash == std::string_view::npos) break;
    part_start = slash + 1;
  }
  if (has(kind, "GDRDMA")) key += "+GDRDMA";
  if (!key.empty() && topo.transports.size() < 64) ++topo.transports[key];
  if (auto c = int_after(msg, msg[0] == 'C' ? "Channel " : "Ring ")) {
    if (!topo.max_channels || *c + 1 > *topo.max_channels) topo.max_channels = static_cast<int>(*c + 1);
  }
  // "... : 0[0] -> 1[1] via ...": the pair of ranks this connection joins.
  auto from = int_after(msg, " : ");
  auto to = int_after(msg, "-> ");
  if (from && to && !key.empty() && topo.peer_transports.size() < kMaxPeerPairs)
    topo.peer_transports.try_emplace({static_cast<int>(*from), static_cast<int>(*to)}, key);
}

// Ranks separated by single spaces, cut to a display length ("   0   3   2" -> "0 3 2").
std::string squeeze(std::string_view s, std::size_t max = 200) {
  std::string out;
  for (char c : s) {
    if (c == ' ' || c == '\t') {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else if (out.size() < max) {
      out += c;
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// "Channel 00/08 :    0   3   2   1 ..." (2.7+) or "Ring 00 :    0   1 ..." (older): one ring's order.
// False when the line is not one (it then goes through signature matching like any other).
bool parse_ring_order(std::string_view msg, TopologyFacts& topo) {
  auto c = int_after(msg, msg[0] == 'C' ? "Channel " : "Ring ");
  auto colon = msg.find(" : ");
  if (!c || colon == std::string_view::npos) return false;
  auto order = msg.substr(colon + 3);
  // Rank numbers only (2.23+ cuts long orders with "..."); anything else is another line, or a cut one.
  if (order.find_first_not_of("0123456789 .") != std::string_view::npos) return false;
  if (topo.rings.size() < kMaxRings) topo.rings.try_emplace(static_cast<int>(*c), squeeze(order));
  return true;
}

// "Trees [0] 5/-1/-1->1->2|2->1->5/-1/-1 [1] ...": keep channel 0, keyed by the rank in its middle.
void parse_trees(std::string_view msg, TopologyFacts& topo) {
  auto b = msg.find("[0] ");
  if (b == std::string_view::npos || topo.trees.size() >= kMaxTreeRanks) return;
  auto entry = msg.substr(b + 4);
  entry = entry.substr(0, std::min(entry.find(' '), std::size_t{80}));
  auto arrow = entry.find("->");
  if (arrow == std::string_view::npos) return;
  auto rank = int_after(entry.substr(arrow), "->");
  if (rank) topo.trees.try_emplace(static_cast<int>(*rank), std::string(entry.substr(0, entry.find('|'))));
}

void parse_list_after(std::string_view msg, std::string_view key, std::set<std::string>& out) {
  auto p = msg.find(key);
  if (p == std::string_view::npos) return;
  auto rest = msg.substr(p + key.size());
  auto semi = rest.find(';');
  rest = rest.substr(0, semi);
  // items look like "[0]mlx5_0:1/RoCE" separated by spaces
  std::size_t i = 0;
  while (i < rest.size() && out.size() < 64) {
    auto b = rest.find('[', i);
    if (b == std::string_view::npos) break;
    auto e = rest.find(']', b);
    if (e == std::string_view::npos) break;
    auto end = rest.find(' ', e);
    auto item = rest.substr(e + 1, end == std::string_view::npos ? std::string_view::npos : end - e - 1);
    if (!item.empty()) out.emplace(item);
    if (end == std::string_view::npos) break;
    i = end;
  }
}

}  // namespace

bool parse_watchdog(std::string_view msg, ProcessFacts& proc) {
  bool any = false;
  if (has(msg, "Watchdog caught collective operation timeout")) {
    if (auto v = int_after(msg, "SeqNum=")) proc.timeout_seq = *v;
    if (auto op = word_after(msg, "OpType="); !op.empty()) proc.timeout_op = std::string(op);
    if (auto v = int_after(msg, "Timeout(ms)=")) proc.timeout_ms = *v;
    if (auto v = int_after(msg, "ran for ")) proc.ran_for_ms = *v;
    if (auto r = int_after(msg, "[Rank "); r && !proc.rank) proc.rank = static_cast<int>(*r);
    any = true;
  }
  // "[PG ID 0 ...] Timeout at NCCL work: 12, last enqueued NCCL work: 12, last completed NCCL work: 11."
  if (has(msg, "last enqueued")) {
    auto e = int_after(msg, "last enqueued NCCL work:");
    if (!e) e = int_after(msg, "last enqueued work:");
    auto c = int_after(msg, "last completed NCCL work:");
    if (!c) c = int_after(msg, "last completed work:");
    if (e) proc.last_enqueued = *e;
    if (c) proc.last_completed = *c;
    any = any || e || c;
  }
  return any;
}

// "<if>:<address><port>" after `key` (NCCL's ncclSocketToString of its own interface) -> host.
void note_own_address(std::string_view msg, std::string_view key, const ProcessFacts& proc, TopologyFacts& topo) {
  if (!proc.host || topo.host_of_addr.size() >= 4096) return;
  auto at = msg.find(key);
  if (at == std::string_view::npos) return;
  auto t = msg.substr(at + key.size());
  while (!t.empty() && t.front() == ' ') t.remove_prefix(1);
  t = t.substr(0, t.find_first_of("< "));
  auto colon = t.find(':');
  if (colon == std::string_view::npos || colon + 1 >= t.size()) return;
  auto addr = t.substr(colon + 1);
  if (addr.size() > 64) return;
  // An address two hosts claim (containers on one bridge, a copied config) names neither: "".
  auto [it, fresh] = topo.host_of_addr.emplace(std::string(addr), *proc.host);
  if (!fresh && it->second != *proc.host) it->second.clear();
}

namespace {
// The value of NAME in an env dump ("NAME=value", "export NAME=value", "declare -x NAME=\"value\"")
// or a list of assignments ("RANK=0 WORLD_SIZE=2 python train.py"): NAME starts the line, follows
// "export "/"declare -x ", or follows another assignment. Not inside a sentence (NCCL's hint "you
// can set NCCL_IB_GID_INDEX=-1 to enable automatic detection" sets nothing), and LOCAL_WORLD_SIZE=
// is not WORLD_SIZE=.
std::optional<std::string_view> env_value(std::string_view msg, std::string_view name) {
  msg = core::trim(msg);
  for (auto at = msg.find(name); at != std::string_view::npos; at = msg.find(name, at + 1)) {
    if (at > 0) {
      if (msg[at - 1] != ' ') continue;
      auto before = core::trim(msg.substr(0, at));
      auto sp = before.rfind(' ');
      auto prev = sp == std::string_view::npos ? before : before.substr(sp + 1);
      const bool assignment = prev.find('=') != std::string_view::npos;
      if (!assignment && before != "export" && !before.ends_with("declare -x")) continue;
    }
    auto rest = msg.substr(at + name.size());
    if (rest.empty() || rest.front() != '=') continue;
    rest.remove_prefix(1);
    if (!rest.empty() && (rest.front() == '"' || rest.front() == '\'')) rest.remove_prefix(1);
    auto end = rest.find_first_of(" \t\"'");
    return rest.substr(0, end);
  }
  return std::nullopt;
}

// The job's size and the IB settings forced by the environment (TopologyFacts::world_sizes,
// ib_gid_index_env, ib_hca_env).
FactKind env_facts(std::string_view msg, TopologyFacts& topo) {
  auto small_int = [](std::string_view v) -> std::optional<int> {
    auto n = core::parse_int(v);
    if (!n || *n < 0 || *n > 999999) return std::nullopt;
    return static_cast<int>(*n);
  };
  bool any = false;
  auto add_world = [&](std::optional<int> w) {
    if (w && *w > 0 && topo.world_sizes.size() < 4) topo.world_sizes.insert(*w), any = true;
  };
  if (auto v = env_value(msg, "WORLD_SIZE")) add_world(small_int(*v));
  // torch/distributed/elastic/agent/server/api.py, the rendezvous result torchrun logs at INFO:
  // "global_world_sizes=[2, 2]" (one entry per local worker, all the job's size).
  if (auto at = msg.find("global_world_sizes=["); at != std::string_view::npos) {
    auto rest = msg.substr(at + 20);
    add_world(small_int(rest.substr(0, rest.find_first_of(",]"))));
  }
  // A setting the library echoes ("<said>value") or an env dump's NAME=value, into `out`.
  auto setting = [&](std::string_view said, std::string_view name, std::string_view stop, std::size_t max,
                     std::string& out) {
    std::string_view v;
    if (auto at = msg.find(said); at != std::string_view::npos) v = core::trim(msg.substr(at + said.size()));
    else if (auto e = env_value(msg, name)) v = *e;
    v = v.substr(0, std::min(v.find_first_of(stop), max));
    if (!v.empty()) out = std::string(v), any = true;
  };
  setting("NCCL_IB_GID_INDEX set by environment to ", "NCCL_IB_GID_INDEX", ". \r\n", 16,
          topo.ib_gid_index_env);                                                          // misc/param.cc
  setting("NCCL_IB_HCA set to ", "NCCL_IB_HCA", " \r\n", 200, topo.ib_hca_env);            // transport/net_ib/init.cc
  // vLLM utils.py find_nccl_library: logger.info("Found nccl from environment variable VLLM_NCCL_SO_PATH=%s").
  setting("Found nccl from environment variable VLLM_NCCL_SO_PATH=", "VLLM_NCCL_SO_PATH", " \r\n", 300,
          topo.vllm_nccl_so_path);
  return any ? FactKind::fact : FactKind::none;
}
}  // namespace

FactKind collect_facts(std::string_view msg, ProcessFacts& proc, TopologyFacts& topo) {
  // COLL lines dominate INFO+COLL logs: test them first and cheaply.
  if (auto p = msg.find(": opCount "); p != std::string_view::npos) {
    auto fn = msg.substr(0, p);
    // NCCL prints "%s: opCount %lx sendbuff %p ..." (COLL subsystem); the function name is one word.
    // Hot path (one call per COLL line): the count is read where the key ends, and " sendbuff "
    // is first looked for right after it, where NCCL prints it; the general search is the fallback.
    constexpr std::string_view kKey = ": opCount ";
    const auto after = msg.substr(p);
    std::size_t number_end = 0;
    if (auto v = hex_after_key(after, kKey.size(), number_end)) {
      if (!proc.last_opcount || *v > *proc.last_opcount) proc.last_opcount = *v;
      // (The function name is one word on NCCL's own lines: one memchr before the backward search.)
      auto sp = fn.find(' ') == std::string_view::npos ? std::string_view::npos : fn.rfind(' ');
      auto name = sp == std::string_view::npos ? fn : fn.substr(sp + 1);
      if (!proc.last_coll) proc.last_coll.emplace(name);
      else if (*proc.last_coll != name) proc.last_coll->assign(name);
    }
    constexpr std::string_view kSendbuff = " sendbuff ";
    bool fixed = !fn.empty() && fn.find(' ') == std::string_view::npos &&
                 ((number_end > 0 && after.substr(number_end, kSendbuff.size()) == kSendbuff) || has(after, kSendbuff));
    return fixed ? FactKind::fixed_format : FactKind::fact;
  }
  if (msg.substr(0, 8) == "Channel " || msg.substr(0, 5) == "Ring ") {
    if (has(msg, " via ")) {
      parse_transport(msg, topo);
      return FactKind::fixed_format;  // "Channel %02d/%d : %d[%d] -> %d[%d] via ...", before 2.7 "Ring %02d : ..."
    }
    if (parse_ring_order(msg, topo)) return FactKind::fixed_format;  // "Channel %02d/%02d :  %d %d ..." (ranks only)
  }
  if (msg.substr(0, 7) == "Trees [") {
    parse_trees(msg, topo);
    return FactKind::fixed_format;
  }
  if (has(msg, "NCCL version ")) {
    parse_version(msg, proc);
    return FactKind::fact;
  }
  if (has(msg, "Init COMPLETE") || has(msg, "Init START")) {
    parse_init(msg, proc);
    return FactKind::fact;
  }
  if (has(msg, "Watchdog caught") || has(msg, "last enqueued"))
    return parse_watchdog(msg, proc) ? FactKind::fact : FactKind::none;
  if (has(msg, "watchdog got stuck for ")) {  // the heartbeat monitor: this rank is waiting too
    proc.watchdog_stuck = true;
    return FactKind::fact;
  }
  if (auto v = int_after(msg, "cudaDriverVersion ")) {
    proc.cuda_driver = *v;
    return FactKind::fact;
  }
  if (msg.substr(0, 1) == "#" && has(msg, " Group ") && has(msg, " Pid ") && has(msg, " device ")) {
    auto t = msg.substr(1);
    while (!t.empty() && t.front() == ' ') t.remove_prefix(1);
    if (t.substr(0, 5) == "Rank ") {
      auto r = int_after(t, "Rank ");
      auto pid = int_after(t, " Pid ");
      if (r && pid) {
        topo.nccltests_max_rank = std::max(topo.nccltests_max_rank, static_cast<int>(std::min<long long>(*r, 1 << 20)));
        if (*r == 0 && topo.nccltests_rank0_pids.size() < 64) topo.nccltests_rank0_pids.insert(*pid);
      }
      return FactKind::fact;
    }
  }
  if (has(msg, "P2P (Peer-to-Peer) GPU Bandwidth Latency Test")) {
    topo.p2p_test = true;
    return FactKind::fact;
  }
  if (topo.p2p_test) {
    if (has(msg, " Matrix (GB/s)") || has(msg, "Latency Matrix")) {
      ++topo.p2p_matrix_headers;
      topo.p2p_rows_after_header = 0;
      return FactKind::fact;
    }
    // A data row: the row index then numbers with decimals ("     0 352.10  10.35 ...").
    auto t = msg;
    while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
    if (!t.empty() && std::isdigit(static_cast<unsigned char>(t.front())) && has(t, ".")) ++topo.p2p_rows_after_header;
  }
  if (has(msg, "Bootstrap : Using") || has(msg, "Bootstrap: Using")) {
    note_own_address(msg, "Using", proc, topo);
    return FactKind::fact;
  }
  if (has(msg, "Using network ")) {
    auto w = msg.substr(msg.find("Using network ") + 14);
    topo.networks.emplace(w.substr(0, std::min<std::size_t>(w.size(), 40)));
    return FactKind::fact;
  }
  if (has(msg, "NET/IB : Using") || has(msg, "NET/IB: Using")) {
    parse_list_after(msg, "Using", topo.ib_devices);
    note_own_address(msg, "OOB ", proc, topo);
    return FactKind::fact;
  }
  // Still matched by signatures (an observation of its own); the flag feeds triage.ib-without-gdr.
  if (has(msg, "GPU Direct RDMA Disabled for HCA")) {
    topo.gdr_disabled = true;
    return FactKind::fact;
  }
  if (has(msg, "NET/IB : No device found")) {
    topo.ib_no_device = true;
    return FactKind::fact;
  }
  if (has(msg, "Failed to open libibverbs")) {
    topo.verbs_missing = true;
    return FactKind::fact;
  }
  if (has(msg, "NET/Socket : Using")) {
    parse_list_after(msg, "Using", topo.socket_ifs);
    // "NET/Socket : Using [0]ens5:10.2.0.11<0> [1]ens6:10.3.0.11<0>" (NVIDIA/nccl
    // src/transport/net_socket.cc, one " [%d]%s:%s" per interface): this host's own data addresses,
    // which its peers' "Connection closed by remote peer"/"message truncated" lines name.
    for (auto at = msg.find(" ["); at != std::string_view::npos && at + 2 < msg.size(); at = msg.find(" [", at + 2))
      note_own_address(msg.substr(at), "]", proc, topo);
    return FactKind::fact;
  }
  if (has(msg, "NCCL_IB_DISABLE set by environment to ")) {
    auto v = int_after(msg, "NCCL_IB_DISABLE set by environment to ");
    topo.ib_disabled_by_env = v && *v != 0;
    return FactKind::fact;
  }
  // NVIDIA/nccl src/graph/paths.cc:244 (2.21.5): INFO "%s set by environment to %s" with the level's
  // name (LOC, NVL, PIX, PXB, PXN, PHB, SYS) for NCCL_P2P_LEVEL.
  if (constexpr std::string_view kP2pLevel = "NCCL_P2P_LEVEL set by environment to "; has(msg, kP2pLevel)) {
    auto at = msg.find(kP2pLevel) + kP2pLevel.size();
    auto end = msg.find_first_of(" .\r\n", at);
    topo.p2p_level_env = std::string(msg.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at));
    return FactKind::fact;
  }
  if (has(msg, "WORLD_SIZE") || has(msg, "world_sizes=[") || has(msg, "NCCL_IB_") || has(msg, "NCCL_SO_PATH="))
    return env_facts(msg, topo);
  if (has(msg, "TIMEOUT(ms): ")) {
    if (auto v = int_after(msg, "TIMEOUT(ms): ")) proc.configured_timeout_ms = *v;
    if (auto r = int_after(msg, "global rank: "); r && !proc.rank) proc.rank = static_cast<int>(*r);
    if (auto n = int_after(msg, "size: "); n && !proc.nranks) proc.nranks = static_cast<int>(*n);
    return FactKind::fact;
  }
  return FactKind::none;
}

}  // namespace ncdx::analyze
