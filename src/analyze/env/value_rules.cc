// Value checks for NCCL variables, following NCCL's own parsing (NVIDIA/nccl src/misc/param.cc, src/graph/paths.cc):
// integers through strtoll(base 0), case-sensitive path levels, debug level and subsystem names,
// socket interface lists.
#include <cerrno>
#include <cstdlib>

#include "analyze/env/lint_internal.h"
#include "core/strings.h"

namespace ncdx::analyze::detail {

NcclInt parse_nccl_int(std::string_view s) {
  NcclInt r;
  if (s.empty()) { r.empty = true; return r; }
  std::string tmp(s);
  const char* begin = tmp.c_str();
  char* end = nullptr;
  errno = 0;
  long long v = std::strtoll(begin, &end, 0);
  r.overflow = errno == ERANGE;
  r.value = v;
  r.no_digits = end == begin;
  r.trailing = r.no_digits ? tmp : std::string(end);
  // strtoll skips leading spaces and a sign before the base prefix.
  std::string_view body = core::trim(s);
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) body.remove_prefix(1);
  r.hex = body.size() > 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X');
  r.octal = !r.hex && body.size() > 1 && body[0] == '0' && body[1] >= '0' && body[1] <= '9';
  return r;
}

namespace {

const char* kParam = "NVIDIA/nccl src/misc/param.cc ncclLoadParam (v2.14-v2.30)";

// Generic integer check; returns the parsed value when NCCL would take a number from it.
std::optional<long long> check_int(Ctx& c, const knowledge::NcclVar& v, const std::string& value) {
  auto p = parse_nccl_int(value);
  const std::string src = tsv_source(v) + "; " + kParam;
  if (p.empty) {
    c.add(v.name, kPass, "env.empty", "", "", "An empty value means unset: NCCL keeps its default (" + v.default_value + ").", src);
    return std::nullopt;
  }
  if (p.overflow) {
    c.add(v.name, kWarn, "env.int-overflow", "value ignored (default used)", "a number in range",
          "strtoll overflows, so NCCL logs 'Invalid value' and uses the default (" + v.default_value + ").", src);
    return std::nullopt;
  }
  if (p.no_digits) {
    std::string extra;
    if (v.name == "NCCL_IB_DISABLE" || v.name == "NCCL_P2P_DISABLE" || v.name == "NCCL_SHM_DISABLE")
      extra = " The transport stays ENABLED although the value reads like 'disable'.";
    bool looks_true = core::iequals(value, "true") || core::iequals(value, "yes") || core::iequals(value, "on");
    c.add(v.name, kWarn, "env.int-non-numeric", "read as 0" + std::string(looks_true ? " (the opposite of what it says)" : ""),
          v.name + "=" + (looks_true ? "1" : "<number>"),
          "NCCL parses integers with strtoll: '" + value + "' has no number, so NCCL stores 0 and logs '" + v.name +
              " set by environment to 0.'" + extra,
          src);
    return 0;
  }
  if (!p.trailing.empty()) {
    c.add(v.name, kWarn, "env.int-trailing-junk", "read as " + std::to_string(p.value),
          v.name + "=" + std::to_string(p.value) + " (plain number, no suffix)",
          "strtoll stops at '" + p.trailing + "': NCCL takes " + std::to_string(p.value) +
              (v.type.find("bytes") != std::string::npos ? " bytes (no K/M/G suffixes)." : "."),
          src);
    return p.value;
  }
  if (p.octal) {
    c.add(v.name, kWarn, "env.int-octal", "read as octal: " + std::to_string(p.value),
          v.name + "=" + std::to_string(p.value) + " or drop the leading 0",
          "strtoll with base 0 reads a leading 0 as octal, so '" + value + "' is " + std::to_string(p.value) + ".", src);
    return p.value;
  }
  if (v.is_bool() && p.value != 0 && p.value != 1) {
    c.add(v.name, kWarn, "env.bool-range", "unusual switch value", v.name + "=1 or 0",
          "A 0/1 switch; NCCL reads " + std::to_string(p.value) + " as a number, which code paths may treat differently from 1.",
          src);
  }
  return p.value;
}

// Path levels (src/graph/paths.cc ncclGetLevel): exact strcmp against topoPathTypeStr.
std::vector<std::string> path_levels(const Version& v) {
  std::vector<std::string> l = {"LOC", "NVL", "NVB"};
  if (v >= core::V("2.26.0")) l.push_back("C2C");
  l.insert(l.end(), {"PIX", "PXB"});
  if (v >= core::V("2.27.0")) l.push_back("P2C");
  l.insert(l.end(), {"PXN", "PHB", "SYS"});
  return l;
}

void check_level(Ctx& c, const knowledge::NcclVar& v, const std::string& value) {
  const std::string src = tsv_source(v) + "; NVIDIA/nccl src/include/graph.h PATH_*";
  auto levels = path_levels(c.nccl);
  for (const auto& l : levels)
    if (value == l) {
      c.add(v.name, kPass, "env.level", "", "", value + " is a path type " + c.nccl_label() + " accepts.", src);
      return;
    }
  if (!value.empty() && value[0] >= '0' && value[0] <= '9') {
    static const char* old[] = {"LOC", "PIX", "PXB", "PHB", "SYS", "SYS"};
    long long n = std::strtoll(value.c_str(), nullptr, 0);
    std::string m = n >= 0 && n <= 5 ? old[n] : "SYS";
    c.add(v.name, kWarn, "env.level-legacy-int", "legacy integer mapping: " + value + " means " + m,
          v.name + "=" + m,
          "Integers use the old numbering 0-5 = LOC,PIX,PXB,PHB,SYS,SYS (larger values clamp to SYS), not NCCL's "
          "internal PATH_* numbers; write the level name instead.",
          src);
    return;
  }
  for (const auto& l : levels)
    if (core::iequals(value, l)) {
      c.add(v.name, kWarn, "env.level-case", "silently ignored: NCCL keeps its default",
            v.name + "=" + l,
            "Level names are matched with strcmp (case-sensitive): '" + value + "' matches nothing, so NCCL "
            "ignores it without a warning and keeps the default (PXB" +
                std::string(v.name == "NCCL_NET_GDR_LEVEL" ? ", or P2C when NCCL_NET_GDR_C2C=1" : "") + ").",
            src);
      return;
    }
  std::string known = core::join(levels, ",");
  bool later = value == "C2C" || value == "P2C";
  c.add(v.name, kWarn, "env.level-unknown", "silently ignored: NCCL keeps its default",
        "one of " + known,
        later ? value + " is not known to " + c.nccl_label() + " (C2C from 2.26, P2C from 2.27); the value is ignored."
              : "'" + value + "' is not a path type; NCCL ignores it without a warning.",
        src);
}

void check_debug(Ctx& c, const knowledge::NcclVar& v, const std::string& value) {
  const std::string src = tsv_source(v);
  static const char* levels[] = {"VERSION", "WARN", "INFO", "ABORT", "TRACE"};
  for (const char* l : levels)
    if (core::iequals(value, l)) {
      std::string upper = l;
      bool verbose = upper == "INFO" || upper == "TRACE";
      if (verbose && c.in.production) {
        c.add(v.name, kWarn, "env.debug-in-production", "log volume and overhead on every rank",
              "NCCL_DEBUG=WARN (INFO only while debugging)",
              upper + " logs every init, transport and (with subsystems) per-call line on every rank; keep it for "
                      "debugging runs (ncdx env debug) and use WARN in production." +
                  std::string(upper == "TRACE" ? " TRACE only works in NCCL builds with tracing enabled." : "") +
                  (value != upper ? " (Level names are case-insensitive: '" + value + "' is " + upper + ".)" : ""),
              src);
      } else {
        c.add(v.name, kPass, "env.debug-level", "", "",
              value + " is a valid level" + (value != upper ? " (names are case-insensitive)." : "."), src);
      }
      return;
    }
  c.add(v.name, kWarn, "env.debug-unknown", "not a log level: expect no NCCL log output", "NCCL_DEBUG=WARN",
        "'" + value + "' is not one of VERSION, WARN, INFO, ABORT, TRACE (matched case-insensitively), so NCCL does "
        "not take it as a level.", src);
}

void check_subsys(Ctx& c, const knowledge::NcclVar& v, const std::string& value) {
  struct S { const char* name; const char* since; };
  static const S subs[] = {{"INIT", nullptr}, {"COLL", nullptr},   {"P2P", nullptr},     {"SHM", nullptr},
                           {"NET", nullptr},  {"GRAPH", nullptr},  {"TUNING", nullptr},  {"ENV", nullptr},
                           {"ALLOC", nullptr}, {"ALLOC_HOST", "2.30.3"}, {"CALL", nullptr}, {"PROXY", nullptr},
                           {"NVLS", nullptr}, {"BOOTSTRAP", "2.21.5"}, {"REG", "2.21.5"}, {"PROFILE", "2.22.3"},
                           {"RAS", "2.24.3"}, {"DESTROY", "2.30.3"}, {"ALL", nullptr}};
  std::string_view body = value;
  if (!body.empty() && body[0] == '^') body.remove_prefix(1);
  std::vector<std::string> bad;
  bool all = false;
  for (auto tok : core::split(body, ',')) {
    tok = core::trim(tok);
    if (tok.empty()) continue;
    bool ok = false;
    for (const auto& s : subs)
      if (core::iequals(tok, s.name)) {
        ok = !s.since || c.nccl >= core::V(s.since);
        all |= std::string_view(s.name) == "ALL";
      }
    if (!ok) bad.emplace_back(tok);
  }
  const std::string src = tsv_source(v);
  if (!bad.empty()) {
    c.add(v.name, kWarn, "env.subsys-unknown", "subsystem(s) ignored: " + core::join(bad, ","),
          "names from: INIT,COLL,P2P,SHM,NET,GRAPH,TUNING,ENV,ALLOC,CALL,PROXY,NVLS,BOOTSTRAP,REG,PROFILE,RAS,ALL",
          "Not a subsystem of " + c.nccl_label() + " (BOOTSTRAP/REG from 2.21, PROFILE 2.22, RAS 2.24, "
          "ALLOC_HOST/DESTROY 2.30); NCCL skips unknown names.",
          src);
  } else if (all && value[0] != '^' && c.in.production) {
    c.add(v.name, kWarn, "env.subsys-all-production", "very large logs", "NCCL_DEBUG_SUBSYS=INIT,ENV (or unset)",
          "ALL enables every subsystem's INFO lines (COLL and CALL log each collective).", src);
  }
}

void check_ifname(Ctx& c, const knowledge::NcclVar& v, const std::string& value) {
  const std::string src = tsv_source(v);
  if (value.size() <= 1) {
    c.add(v.name, kWarn, "env.ifname-short", "ignored (auto selection)", "the inter-node interface name",
          "NCCL ignores values of length <= 1 and picks interfaces itself.", src);
    return;
  }
  if (c.in.interfaces.empty()) return;  // nothing to compare with
  std::string_view body = value;
  bool exclude = false, exact = false;
  if (body[0] == '^') { exclude = true; body.remove_prefix(1); }
  if (!body.empty() && body[0] == '=') { exact = true; body.remove_prefix(1); }
  std::vector<std::string> matched;
  for (const auto& itf : c.in.interfaces) {
    bool m = false;
    for (auto tok : core::split(body, ',')) {
      if (tok.empty()) continue;
      m |= exact ? itf == tok : itf.rfind(tok, 0) == 0;
    }
    if (m != exclude) matched.push_back(itf);
  }
  std::string have = core::join(c.in.interfaces, ",");
  if (matched.empty()) {
    c.add(v.name, kFail, "env.ifname-no-match", "bootstrap fails: no usable interface",
          "an interface this node has (" + have + ")",
          "'" + value + "' selects none of this node's interfaces (" + have +
              "); NCCL finds no socket interface and init fails (corpus open-r1-multimodal-7).",
          src);
  } else {
    c.add(v.name, kPass, "env.ifname", "", "", "Selects " + core::join(matched, ",") + " of " + have + ".", src);
  }
}

void check_channels(Ctx& c, const knowledge::NcclVar& v, long long n) {
  long long cap = c.nccl >= core::V("2.25.1") ? 64 : 32;
  if (n > cap)
    c.add(v.name, kWarn, "env.channels-clamped", "clamped to " + std::to_string(cap), v.name + "=" + std::to_string(cap),
          "Channel counts are clamped to MAXCHANNELS (32 before 2.25.1, 64 from 2.25.1); " + c.nccl_label() +
              " uses " + std::to_string(cap) + ".",
          tsv_source(v) + "; NVIDIA/nccl v2.25.1-1 (MAXCHANNELS 32 -> 64)");
}

}  // namespace

void value_rules(Ctx& c, const knowledge::NcclVar& v, const std::string& value) {
  const std::string& n = v.name;
  if (n == "NCCL_DEBUG") return check_debug(c, v, value);
  if (n == "NCCL_DEBUG_SUBSYS") return check_subsys(c, v, value);
  if (n == "NCCL_P2P_LEVEL" || n == "NCCL_NET_GDR_LEVEL") return check_level(c, v, value);
  if (n == "NCCL_ALGO" || n == "NCCL_PROTO") return algo_proto_rules(c, n, value);
  if (n == "NCCL_SOCKET_IFNAME") return check_ifname(c, v, value);
  if (n == "NCCL_SOCKET_FAMILY") {
    if (value != "AF_INET" && value != "AF_INET6")
      c.add(n, kWarn, "env.socket-family", "ignored", "AF_INET or AF_INET6",
            "Compared exactly and case-sensitively with AF_INET / AF_INET6.", tsv_source(v));
    return;
  }
  if (n == "NCCL_NET_MERGE_LEVEL") {
    static const char* ok[] = {"LOC", "PORT", "PIX", "PXB", "P2C", "PXN", "PHB", "SYS"};
    for (const char* o : ok) if (value == o) return;
    c.add(n, kWarn, "env.merge-level", "not a merge level", "one of LOC,PORT,PIX,PXB,P2C,PXN,PHB,SYS",
          "NCCL_NET_MERGE_LEVEL uses its own table (default PORT).", tsv_source(v));
    return;
  }
  if (n == "NCCL_DEBUG_FILE") {
    if (value.find("%p") == std::string::npos)
      c.add(n, kWarn, "env.debug-file-no-pid", "ranks on one host overwrite each other's log",
            value + (value.find("%h") == std::string::npos ? ".%h.%p" : ".%p"),
            "NCCL expands %h (host) and %p (pid) in the name; without %p every process on a node opens the same file.",
            tsv_source(v));
    return;
  }
  if (!v.is_int()) return;  // other strings: nothing we can check without the machine
  auto num = check_int(c, v, value);
  if (!num) return;
  if (n == "NCCL_MIN_NCHANNELS" || n == "NCCL_MAX_NCHANNELS" || n == "NCCL_MIN_NRINGS" || n == "NCCL_MAX_NRINGS" ||
      n == "NCCL_MIN_CTAS" || n == "NCCL_MAX_CTAS" || n == "NCCL_MAX_P2P_NCHANNELS" || n == "NCCL_MIN_P2P_NCHANNELS")
    check_channels(c, v, *num);
  if (n == "NCCL_COLLNET_ENABLE" && *num != 0 && *num != 1)
    c.add(n, kWarn, "env.collnet-value", "reset to 0 (CollNet off)", "NCCL_COLLNET_ENABLE=1",
          "Any value other than 0/1 is reset to 0.", tsv_source(v));
  if (n == "NCCL_NVLS_ENABLE" && *num == 1 && c.nccl >= core::V("2.18.1"))
    c.add(n, kWarn, "env.nvls-force", "init error where NVLS is unsupported", "unset (default 2 = auto)",
          "1 forces NVLS: it skips the multicast-support check and returns ncclInvalidUsage if several ranks share "
          "a device; the default since 2.18.1 is 2 (auto).",
          tsv_source(v));
  if (n == "NCCL_SOCKET_NTHREADS" && *num > 16)
    c.add(n, kWarn, "env.socket-threads-clamped", "clamped to 16", "NCCL_SOCKET_NTHREADS=16",
          "MAX_THREADS is 16; larger values are clamped with a WARN.", tsv_source(v));
  if (n == "NCCL_IB_GID_INDEX" && c.nccl >= core::V("2.21.5"))
    c.add(n, kWarn, "env.gid-index-fixed", "a fixed index can pick a non-routable GID", "unset (auto since 2.21.5)",
          "From 2.21.5 NCCL selects the GID itself (default -1); a fixed index that maps to a link-local address "
          "times out across nodes (corpus nccl-769).",
          tsv_source(v) + "; NVIDIA/nccl v2.21.5-1 (default -1)");
  if ((n == "NCCL_IB_TC" || n == "NCCL_IB_FIFO_TC") && (*num < -1 || *num > 255))
    c.add(n, kWarn, "env.ib-tc-range", "out of range", "0-255 (DSCP<<2)",
          "The GRH traffic class is 0-255.", tsv_source(v));
}

}  // namespace ncdx::analyze::detail
