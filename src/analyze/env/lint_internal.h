#pragma once
// Shared pieces of the env lint rules (env/lint.cc, env/value_rules.cc, env/algo_rules.cc,
// env/combo_rules.cc). Not part of the public API.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyze/env/lint.h"
#include "analyze/env/rows.h"
#include "knowledge/env_vars.h"

namespace ncdx::analyze::detail {

inline constexpr core::Outcome kPass = core::Outcome::pass;
inline constexpr core::Outcome kWarn = core::Outcome::warn;
inline constexpr core::Outcome kFail = core::Outcome::fail;

// The newest NCCL the fact tables cover; an unknown version is judged as this one and says so.
inline const Version& newest_nccl() {
  static const Version v = core::V("2.30.7");
  return v;
}

struct Ctx {
  const EnvLintInput& in;
  EnvRows& rows;
  // Version used for judging, and whether it was given/detected or assumed.
  Version nccl;
  bool nccl_known;
  std::string nccl_label() const { return nccl_known ? "NCCL " + nccl.str() : "NCCL (version unknown, judged as " + nccl.str() + ")"; }

  const std::string* get(std::string_view name) const {
    auto it = in.env.find(std::string(name));
    return it == in.env.end() ? nullptr : &it->second;
  }
  // The parameter, value and origin of a row point into the input (EnvRows keeps views).
  void add(std::string_view name, core::Outcome status, std::string_view rule, std::string_view risk,
           std::string_view recommended, std::string_view why, std::string_view source) {
    static const std::string unset = "(unset)";
    auto it = in.env.find(std::string(name));
    rows.add(it == in.env.end() ? rows.pooled(name) : &it->first, it == in.env.end() ? &unset : &it->second,
             in.origin.find(name), status, rule, risk, recommended, why, source);
  }
  bool multi_node() const { return in.cluster && in.cluster->nodes > 1; }
  bool nvlink() const {
    return in.cluster && in.cluster->intra && (*in.cluster->intra == "nvlink" || *in.cluster->intra == "nvswitch");
  }
  bool engine(std::string_view e) const {
    for (const auto& x : in.engines) if (x == e) return true;
    return false;
  }
};

// NCCL's integer parsing (NCCL v2.21.5-1 src/misc/param.cc:62 ncclLoadParam, :70): strtoll base 0.
struct NcclInt {
  bool empty = false;        // "" means unset
  bool overflow = false;     // errno: NCCL falls back to the default
  long long value = 0;       // what NCCL stores
  bool no_digits = false;    // non-numeric: read as 0
  std::string trailing;      // ignored junk after the number
  bool octal = false;        // leading 0 with more digits: base 8
  bool hex = false;
};
NcclInt parse_nccl_int(std::string_view s);

std::string tsv_source(const knowledge::NcclVar& v);

// Rule groups.
void value_rules(Ctx& c, const knowledge::NcclVar& var, const std::string& value);
void algo_proto_rules(Ctx& c, std::string_view name, const std::string& value);
void combo_rules(Ctx& c);
void torch_rules(Ctx& c, std::string_view name, const std::string& value, const knowledge::TorchVar& t, bool alias);

}  // namespace ncdx::analyze::detail
