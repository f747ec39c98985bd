#include "measure/network/rdma_rails.h"

#include <arpa/inet.h>

#include <algorithm>
#include <array>
#include <charconv>

#include "core/strings.h"

namespace ncdx::measure {
namespace {

bool parse_int(std::string_view s, int* out) {
  if (s.empty()) return false;
  auto r = std::from_chars(s.data(), s.data() + s.size(), *out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

std::string env_or(const std::map<std::string, std::string>& env, const char* k) {
  auto it = env.find(k);
  return it == env.end() ? std::string() : std::string(core::trim(it->second));
}

// One GID table entry as ncclUpdateGidIndex sees it: the 16 bytes ibv_query_gid returns (zero for
// an empty entry) and the RoCE version read from gid_attrs/types (-1 unknown or empty).
struct GidEntry {
  std::array<std::uint8_t, 16> raw{};
  int roce = -1;
};

// sysfs prints a GID as eight colon-separated groups of four hex digits (kernel sysfs.c
// show_port_gid: "%pI6"); anything else reads as an empty entry.
std::array<std::uint8_t, 16> gid_bytes(std::string_view s) {
  std::array<std::uint8_t, 16> b{};
  auto groups = core::split(core::trim(s), ':');
  if (groups.size() != 8) return {};
  for (std::size_t i = 0; i < 8; ++i) {
    unsigned v = 0;
    auto g = groups[i];
    auto r = std::from_chars(g.data(), g.data() + g.size(), v, 16);
    if (g.size() != 4 || r.ec != std::errc() || r.ptr != g.data() + g.size()) return {};
    b[2 * i] = static_cast<std::uint8_t>(v >> 8);
    b[2 * i + 1] = static_cast<std::uint8_t>(v & 0xff);
  }
  return b;
}

// ncclIbRoceGetVersionNum (connect.cc:234): a prefix compare of the type file's text.
int roce_version(const std::optional<std::string>& type) {
  if (!type) return -1;
  std::string_view t = *type;
  if (t.starts_with("IB/RoCE v1") || t.starts_with("RoCE v1")) return 1;
  if (t.starts_with("RoCE v2")) return 2;
  return -1;
}

bool all_zero(const std::uint8_t* b, std::size_t n) { return std::all_of(b, b + n, [](std::uint8_t x) { return x == 0; }); }

// getGidAddrFamily (connect.cc:163): IPv4-mapped ::ffff:a.b.c.d, or its multicast form
// ff0e::ffff:a.b.c.d, is AF_INET; everything else, the empty GID included, AF_INET6.
bool gid_is_v4(const std::array<std::uint8_t, 16>& g) {
  const bool mapped_tail = all_zero(&g[4], 6) && g[10] == 0xff && g[11] == 0xff;
  const bool head_zero = all_zero(&g[0], 4);
  const bool head_mc = g[0] == 0xff && g[1] == 0x0e && g[2] == 0 && g[3] == 0;
  return mapped_tail && (head_zero || head_mc);
}

// validGid = configuredGid && !linkLocalGid (connect.cc:213-232): not empty, not fe80::, and
// not in fe80::/64.
bool gid_valid(const std::array<std::uint8_t, 16>& g) {
  const bool fe80 = g[0] == 0xfe && g[1] == 0x80 && g[2] == 0 && g[3] == 0;
  const bool unconfigured = all_zero(g.data(), 16) || (fe80 && all_zero(&g[4], 12));
  const bool link_local = fe80 && all_zero(&g[4], 4);
  return !unconfigured && !link_local;
}

// matchGidAddrPrefix (connect.cc:171): the first `bits` bits of the range's address against the
// GID's IPv4 part (its last four bytes) or the whole GID.
bool gid_in_range(const std::array<std::uint8_t, 16>& g, const GidRange& r) {
  const std::uint8_t* a = r.v4 ? &g[12] : g.data();
  for (int bit = 0; bit < r.bits; ++bit) {
    const int byte = bit / 8, shift = 7 - bit % 8;
    if (((a[byte] >> shift) & 1) != ((r.addr[byte] >> shift) & 1)) return false;
  }
  return true;
}

// envIbAddrRange (connect.cc:119): "address/bits" in the chosen family. NCCL ignores a value
// without '/', an unparsable address or too many bits; here they are reported.
bool parse_gid_range(std::string_view v, bool v4, std::optional<GidRange>* out, std::string* err) {
  if (v.empty()) return true;
  auto slash = v.find('/');
  GidRange r;
  r.v4 = v4;
  const std::string addr(v.substr(0, slash));
  int bits = -1;
  if (slash == std::string_view::npos || inet_pton(v4 ? AF_INET : AF_INET6, addr.c_str(), r.addr) != 1 ||
      !parse_int(v.substr(slash + 1), &bits) || bits < 0 || bits > (v4 ? 32 : 128)) {
    *err = "NCCL_IB_ADDR_RANGE: expected an " + std::string(v4 ? "IPv4" : "IPv6") + " address/bits, got '" +
           std::string(v) + "'";
    return false;
  }
  r.bits = bits;
  *out = r;
  return true;
}

}  // namespace

std::optional<HcaSpec> parse_hca_spec(std::string_view v, std::string* err) {
  HcaSpec s;
  v = core::trim(v);
  if (!v.empty() && v[0] == '^') s.exclude = true, v.remove_prefix(1);
  if (!v.empty() && v[0] == '=') s.exact = true, v.remove_prefix(1);
  if (v.empty()) {
    if (s.exclude || s.exact) {
      *err = "NCCL_IB_HCA: expected a device name after '^'/'='";
      return std::nullopt;
    }
    return s;
  }
  for (auto item : core::split(v, ',')) {
    item = core::trim(item);
    if (item.empty()) continue;  // NCCL's list parser skips empty entries too
    HcaSpec::Item it;
    auto colon = item.find(':');
    it.dev = std::string(item.substr(0, colon));
    if (it.dev.empty()) {
      *err = "NCCL_IB_HCA: expected dev[:port] in '" + std::string(item) + "'";
      return std::nullopt;
    }
    if (colon != std::string_view::npos) {
      auto rest = item.substr(colon + 1);
      auto port = rest.substr(0, rest.find(':'));  // rail/plane fields after it (2.30) are ignored
      // An empty port is any port, as parseStringList reads it (src/misc/utils.cc:200@v2.30.7-1).
      if (!port.empty() && (!parse_int(port, &it.port) || it.port < 1 || it.port > 255)) {
        *err = "NCCL_IB_HCA: expected a port number 1-255 after ':' in '" + std::string(item) + "'";
        return std::nullopt;
      }
    }
    s.items.push_back(std::move(it));
  }
  return s;
}

bool hca_selected(const HcaSpec& s, std::string_view dev, int port) {
  // No item: matchIfList matches everything, so '^' with only empty items excludes everything
  // (init.cc:370, utils.cc:231@v2.30.7-1).
  if (s.items.empty()) return !s.exclude;
  bool match = std::any_of(s.items.begin(), s.items.end(), [&](const HcaSpec::Item& it) {
    bool name = s.exact ? dev == it.dev : dev.substr(0, it.dev.size()) == it.dev;
    return name && (it.port < 0 || it.port == port);
  });
  return match != s.exclude;
}

int nccl_roce_gid_index(const std::vector<probe::IbGid>& gids, bool want_v4, int roce, const std::optional<GidRange>& range) {
  // The probe keeps the non-empty entries below 32; the rest read as empty, as ibv_query_gid
  // returns them (an empty entry never wins below: it is AF_INET6 and not valid).
  std::array<GidEntry, kGidsRead> t{};
  for (const auto& g : gids)
    if (g.index >= 0 && g.index < kGidsRead) t[g.index] = {gid_bytes(g.gid), roce_version(g.type)};
  auto in_range = [&](const GidEntry& e) { return !range || gid_in_range(e.raw, *range); };
  int cur = 0;  // ncclIbGetGidIndex starts at 0 and lets every later entry challenge it
  for (int cand = 1; cand < kGidsRead; ++cand) {
    const auto &c = t[cand], &g = t[cur];
    const bool cand_v4 = gid_is_v4(c.raw), cur_v4 = gid_is_v4(g.raw);
    // ncclUpdateGidIndex (connect.cc:268): the wanted family beats the other one whatever
    // the version; within the family a valid GID of the wanted version beats one of another
    // version or an invalid one.
    if (cand_v4 != cur_v4 && cand_v4 == want_v4 && in_range(c)) cur = cand;
    else if (cand_v4 == want_v4 && gid_valid(c.raw) && in_range(c) && (g.roce != c.roce || !gid_valid(g.raw)) &&
             c.roce == roce)
      cur = cand;
  }
  return cur;
}

int nccl_ib_gid_index(const std::vector<probe::IbGid>& gids, int routable) {
  // ncclIbGetGidIndex (connect.cc:298) on InfiniBand: the routable-FLID index when its GID
  // carries a FLID (bytes 4-5, ncclIbExtractFlid), else 0; NCCL_IB_GID_INDEX is not read.
  for (const auto& g : gids)
    if (g.index == routable) {
      auto b = gid_bytes(g.gid);
      if (b[4] != 0 || b[5] != 0) return routable;
    }
  return 0;
}

RailChoice choose_rails(const std::vector<probe::IbDevice>& devs, const std::map<std::string, std::string>& env) {
  RailChoice out;
  std::string err;
  auto spec = parse_hca_spec(env_or(env, "NCCL_IB_HCA"), &err);
  int fixed_gid = -1, roce = 2, routable = 1;
  std::string fam = env_or(env, "NCCL_IB_ADDR_FAMILY");
  // A GID index is a u8 in the address vector (ibv_global_route.sgid_index).
  if (auto g = env_or(env, "NCCL_IB_GID_INDEX"); !g.empty() && (!parse_int(g, &fixed_gid) || fixed_gid > 255))
    err = "NCCL_IB_GID_INDEX: expected -1 or an index 0-255, got '" + g + "'";
  if (auto g = env_or(env, "NCCL_IB_ROUTABLE_FLID_GID_INDEX"); !g.empty() && (!parse_int(g, &routable) || routable < 0 || routable > 255))
    err = "NCCL_IB_ROUTABLE_FLID_GID_INDEX: expected an index 0-255, got '" + g + "'";
  if (auto r = env_or(env, "NCCL_IB_ROCE_VERSION_NUM"); !r.empty() && (!parse_int(r, &roce) || (roce != 1 && roce != 2)))
    err = "NCCL_IB_ROCE_VERSION_NUM: expected 1 or 2, got '" + r + "'";
  if (!fam.empty() && fam != "AF_INET" && fam != "AF_INET6")
    err = "NCCL_IB_ADDR_FAMILY: expected AF_INET or AF_INET6, got '" + fam + "'";
  std::optional<GidRange> range;
  if (err.empty()) parse_gid_range(env_or(env, "NCCL_IB_ADDR_RANGE"), fam != "AF_INET6", &range, &err);
  if (!spec || !err.empty()) {
    out.why_none = err;
    return out;
  }
  std::vector<const probe::IbDevice*> sorted;
  for (const auto& d : devs) sorted.push_back(&d);
  std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->name < b->name; });
  std::vector<std::string> seen;
  for (const auto* d : sorted) {
    for (const auto& p : d->ports) {
      std::string state = p.state ? std::string(core::trim(*p.state)) : "unknown";
      seen.push_back(d->name + ":" + std::to_string(p.port) + " " + state);
      if (state.find("ACTIVE") == std::string::npos || state.find("DEFER") != std::string::npos) continue;
      if (!hca_selected(*spec, d->name, p.port)) {
        seen.back() += " (excluded by NCCL_IB_HCA)";
        continue;
      }
      // NCCL opens only InfiniBand and Ethernet (RoCE) ports; sysfs prints "Unknown" for anything
      // else (kernel sysfs.c show_port_link_layer). An unreadable file counts as IB, as verbs'
      // UNSPECIFIED does (abi.md §7.2).
      const std::string layer = p.link_layer ? std::string(core::trim(*p.link_layer)) : "InfiniBand";
      if (layer != "InfiniBand" && layer != "Ethernet") {
        seen.back() += " (link layer " + layer + ")";
        continue;
      }
      RdmaRail r;
      r.dev = d->name;
      r.port = p.port;
      r.ethernet = layer == "Ethernet";
      r.rate_gbps = p.rate_gbps;
      // NCCL never drops a port over its GID: with no better one it addresses by entry 0.
      r.gid_index = !r.ethernet      ? nccl_ib_gid_index(p.gids, routable)
                    : fixed_gid >= 0 ? fixed_gid
                                     : nccl_roce_gid_index(p.gids, fam != "AF_INET6", roce, range);
      for (const auto& g : p.gids)
        if (g.index == r.gid_index) r.gid = g.gid;
      out.rails.push_back(std::move(r));
    }
  }
  if (out.rails.empty())
    out.why_none = seen.empty() ? "no RDMA device in /sys/class/infiniband" : "no usable port: " + core::join(seen, ", ");
  return out;
}

}  // namespace ncdx::measure
