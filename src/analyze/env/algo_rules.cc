// NCCL_ALGO / NCCL_PROTO, parsed the way each NCCL version parses them (NVIDIA/nccl src/graph/tuning.cc parseList,
// src/graph/tuning.cc parseList): tokens per version, per-collective syntax and hard errors from
// 2.24, silently ignored tokens and the "ring backup" before, and which collectives are left
// without any algorithm.
#include <set>

#include "analyze/env/lint_internal.h"
#include "core/strings.h"

namespace ncdx::analyze::detail {
namespace {

const char* kFuncs[] = {"Broadcast", "Reduce", "AllGather", "ReduceScatter", "AllReduce"};

std::vector<std::string> algo_tokens(const Version& v) {
  if (v < core::V("2.14.0")) return {"Tree", "Ring", "CollNet"};
  std::vector<std::string> t = {"Tree", "Ring", "CollNetDirect", "CollNetChain"};
  if (v >= core::V("2.17.0")) { t.push_back("NVLS"); t.push_back("NVLSTree"); }
  if (v >= core::V("2.23.0")) t.push_back("PAT");
  return t;
}

// Algorithms NCCL's model considers for each collective (NVIDIA/nccl src/graph/tuning.cc, v2.14.3-1 to v2.30.7-1).
std::set<std::string> modelled(const std::string& func, const Version& v) {
  if (func == "Broadcast" || func == "Reduce") return {"Ring"};
  if (func == "AllGather" || func == "ReduceScatter") {
    std::set<std::string> s = {"Ring"};
    if (v >= core::V("2.19.0")) s.insert("NVLS");
    if (v >= core::V("2.20.0")) s.insert("CollNetDirect");
    if (v >= core::V("2.23.0")) s.insert("PAT");
    return s;
  }
  auto t = algo_tokens(v);
  std::set<std::string> s(t.begin(), t.end());
  s.erase("PAT");
  return s;
}

std::optional<std::string> canon(std::string_view tok, const std::vector<std::string>& known) {
  for (const auto& k : known)
    if (core::iequals(tok, k)) return k;
  return std::nullopt;
}

struct Parsed {
  std::map<std::string, std::set<std::string>> allowed;  // per function
  std::vector<std::string> unknown_tokens, unknown_prefixes;
  bool explicit_ll128 = false;
};

// Applies one list ("^a,b" or "a,b") to a set of functions.
void apply_list(std::string_view list, const std::vector<std::string>& known, const std::vector<std::string>& funcs,
                Parsed& p) {
  bool neg = !list.empty() && list[0] == '^';
  if (neg) list.remove_prefix(1);
  std::set<std::string> named;
  for (auto tok : core::split(list, ',')) {
    tok = core::trim(tok);
    if (tok.empty()) continue;
    if (auto k = canon(tok, known)) {
      named.insert(*k);
      if (*k == "LL128" && !neg) p.explicit_ll128 = true;
    } else {
      p.unknown_tokens.emplace_back(tok);
    }
  }
  std::set<std::string> result;
  for (const auto& k : known)
    if (named.count(k) == (neg ? 0u : 1u)) result.insert(k);
  for (const auto& f : funcs) p.allowed[f] = result;
}

Parsed parse(std::string_view value, const std::vector<std::string>& known, const Version& v) {
  Parsed p;
  std::vector<std::string> all(std::begin(kFuncs), std::end(kFuncs));
  for (const auto& f : all) p.allowed[f] = std::set<std::string>(known.begin(), known.end());
  if (v < core::V("2.24.0")) {  // one flat list; ';' and ':' are just part of (unknown) tokens
    apply_list(value, known, all, p);
    return p;
  }
  int i = 0;
  for (auto entry : core::split(value, ';')) {
    entry = core::trim(entry);
    auto colon = entry.find(':');
    if (colon == std::string_view::npos) {
      if (i == 0) apply_list(entry, known, all, p);
      else p.unknown_prefixes.emplace_back(entry);
    } else {
      auto fn = core::trim(entry.substr(0, colon));
      auto f = canon(fn, all);
      if (!f) p.unknown_prefixes.emplace_back(fn);
      else apply_list(entry.substr(colon + 1), known, {*f}, p);
    }
    ++i;
  }
  return p;
}

}  // namespace

void algo_proto_rules(Ctx& c, std::string_view name, const std::string& value) {
  const bool algo = name == "NCCL_ALGO";
  const auto* var = knowledge::find_nccl_var(name);
  const std::string src = (var ? tsv_source(*var) + "; " : std::string()) + "NVIDIA/nccl src/graph/tuning.cc parseList, src/enqueue.cc";
  const Version& v = c.nccl;
  const bool v224 = v >= core::V("2.24.0");
  std::vector<std::string> known = algo ? algo_tokens(v) : std::vector<std::string>{"LL", "LL128", "Simple"};
  Parsed p = parse(value, known, v);
  const std::string ver = c.nccl_label();

  if (!p.unknown_tokens.empty() || !p.unknown_prefixes.empty()) {
    std::string toks = core::join(p.unknown_tokens, ",");
    std::string hint;
    for (const auto& t : p.unknown_tokens)
      if (core::iequals(t, "CollNet") && v >= core::V("2.14.0"))
        hint = " 'CollNet' was the token up to 2.13; from 2.14 it is CollNetDirect / CollNetChain.";
    if (v224) {
      std::string what = !p.unknown_tokens.empty() ? "Unrecognized element token \"" + p.unknown_tokens[0] + "\""
                                                   : "Unrecognized prefix token \"" + p.unknown_prefixes[0] + "\"";
      c.add(name, kFail, algo ? "env.algo-invalid" : "env.proto-invalid", "init fails (ncclInvalidUsage)",
            "valid tokens: " + core::join(known, ",") + " [;func:list]",
            ver + " WARNs '" + what + "' and communicator init returns ncclInvalidUsage." + hint, src);
      return;
    }
  }

  // Which collectives are left with nothing usable?
  std::vector<std::string> empty, exotic;
  for (const char* f : kFuncs) {
    // 2.14-2.18 applied the algorithm list to AllReduce only (NVIDIA/nccl src/graph/tuning.cc @ v2.14.3-1..v2.18.6-1).
    if (algo && v < core::V("2.19.0") && std::string_view(f) != "AllReduce") continue;
    std::set<std::string> usable;
    for (const auto& a : p.allowed[f])
      if (!algo || modelled(f, v).count(a)) usable.insert(a);
    if (usable.empty()) empty.emplace_back(f);
    else if (algo && !usable.count("Ring") && !usable.count("Tree")) exotic.emplace_back(f);
  }
  const std::string rule = algo ? "env.algo" : "env.proto";
  const std::string unknown_note =
      p.unknown_tokens.empty() ? "" : " Unknown token(s) " + core::join(p.unknown_tokens, ",") + " are silently ignored by " + ver + ".";
  if (!empty.empty()) {
    std::string fns = core::join(empty, ", ");
    if (v224) {
      c.add(name, kFail, rule + "-no-algorithm", fns + " fail (ncclInvalidUsage)",
            algo ? "per-collective syntax, e.g. NCCL_ALGO=\"allreduce:tree\"" : "unset NCCL_PROTO",
            "From 2.24 there is no ring backup: with " + std::string(name) + "=" + value + " no " +
                (algo ? "algorithm" : "protocol") + " is left for " + fns +
                ", which fail with 'No algorithm/protocol available for function ...'." + unknown_note,
            src);
      return;
    }
    if (algo && v >= core::V("2.19.0")) {
      c.add(name, kWarn, rule + "-ring-backup", "Ring only for " + fns, "unset NCCL_ALGO",
            "Nothing in the list is usable for " + fns + "; " + ver + " (2.19-2.23) re-enables Ring for them (ring "
            "backup, removed in 2.24, where this setting fails)." + unknown_note,
            src);
      return;
    }
    bool only_allreduce = algo && v < core::V("2.19.0");
    bool collnet_fallback = algo && v >= core::V("2.14.0") && value.find_first_of("cC") != std::string::npos &&
                            core::to_lower(value).find("collnet") != std::string::npos;
    if (collnet_fallback) {
      c.add(name, kWarn, rule + "-collnet-fallback", "ignored when CollNet is unavailable", "unset NCCL_ALGO",
            "The list matches no algorithm of " + ver + "; without CollNet support NCCL WARNs 'ignoring "
            "NCCL_ALGO=COLLNET' and re-enables Ring+Tree (2.14-2.19); with CollNet nothing is left." + unknown_note,
            src);
      return;
    }
    c.add(name, kFail, rule + "-no-algorithm", (only_allreduce ? std::string("AllReduce") : fns) + " has nothing left",
          "unset " + std::string(name),
          "The list leaves no usable " + std::string(algo ? "algorithm" : "protocol") + " in " + ver + "." + unknown_note,
          src);
    return;
  }
  if (!exotic.empty()) {
    c.add(name, kWarn, rule + "-hardware-only", "fails where NVLS/CollNet/PAT is unavailable",
          "keep Ring in the list, or unset",
          "For " + core::join(exotic, ", ") + " only NVLS/CollNet/PAT remain; on hardware without them the op fails "
          "with 'no algorithm/protocol available' (corpus pytorch-pr-163063: NCCL_ALGO=NVLS broke Broadcast)." +
              unknown_note,
          src);
    return;
  }
  std::string why = "Forcing " + std::string(algo ? "algorithms" : "protocols") + " overrides NCCL's tuner for every job "
                    "size; keep it for benchmarks or determinism (corpus pytorch-pr-163063).";
  if (algo && !v224 && v >= core::V("2.19.0"))
    why += " Note: from 2.24 a list that leaves a collective without an algorithm fails instead of falling back to Ring.";
  if (algo && v < core::V("2.19.0")) why += " In " + ver + " the list applies only to AllReduce.";
  if (!algo && p.explicit_ll128)
    why += " Naming LL128 explicitly turns it on even where NCCL disables it by default (risk of corruption on "
           "untested paths, NVIDIA/nccl src/graph/tuning.cc).";
  c.add(name, kWarn, rule + "-forced", "tuner overridden" + std::string(p.explicit_ll128 ? "; LL128 forced" : ""),
        "unset (let NCCL choose)", why + unknown_note, src);
}

}  // namespace ncdx::analyze::detail
