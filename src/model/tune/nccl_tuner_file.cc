// Writer and reader of the tuner CSV and the env file (nccl_tuner_file.h for the grammar and
// where each rule of it comes from).
#include "model/tune/nccl_tuner_file.h"

#include <array>
#include <cctype>
#include <sstream>

#include "core/strings.h"
#include "model/cost/types.h"

namespace ncdx::model::tune {
namespace {

// In NCCL's index order (NCCL_ALGO_TREE = 0 ... NCCL_ALGO_PAT = 6; NCCL_PROTO_LL = 0 ...), the
// order of model::cost::Algo/Proto: plugin.c parseAlgorithm/parseProtocol @ v2.30.7-1.
constexpr std::array<std::string_view, 7> kAlgoTokens = {"tree", "ring", "collnet_direct", "collnet_chain", "nvls", "nvls_tree", "pat"};
constexpr std::array<std::string_view, 3> kProtoTokens = {"ll", "ll128", "simple"};
constexpr std::size_t kCommentWidth = 180;  // + "# ": far below the example's 255-byte lines

// Comments hold ASCII only, so a wrapped line's columns are its bytes.
std::string ascii(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (static_cast<unsigned char>(c) >= 0x80 || (static_cast<unsigned char>(c) < 0x20 && c != '\n')) c = '?';
  return out;
}

void write_comment(std::ostringstream& o, const std::string& text) {
  if (text.empty()) return;
  const std::string clean = ascii(text);  // split() returns views into it
  for (auto para : core::split(clean, '\n')) {
    if (core::trim(para).empty()) {
      o << "#\n";
      continue;
    }
    for (const auto& line : core::wrap_text(para, kCommentWidth)) o << "# " << line << "\n";
  }
}

std::string csv_line(const NcclTunerRule& r) {
  std::ostringstream o;
  o << *nccl_tuner_coll_token(r.coll) << ',' << r.min_bytes << ',' << r.max_bytes << ',' << *nccl_tuner_algo_token(r.algo)
    << ',' << *nccl_tuner_proto_token(r.proto) << ',' << r.channels << ',' << r.nnodes << ',' << r.nranks;
  return o.str();
}

std::optional<long long> field_int(std::string_view s, long long lo, long long hi) {
  auto v = core::parse_int(core::trim(s));
  if (!v || *v < lo || *v > hi) return std::nullopt;
  return v;
}

bool nccl_identifier(const std::string& name) {
  if (name.rfind("NCCL_", 0) != 0 || name.size() == 5) return false;
  for (char c : name)
    if (!(std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

}  // namespace

std::optional<std::string_view> nccl_tuner_coll_token(measure::Collective c) {
  using C = measure::Collective;
  if (c == C::alltoall || c == C::sendrecv) return std::nullopt;
  return measure::name_of(c);  // "allreduce" ... are plugin.c's parseCollType tokens
}

std::optional<std::string> nccl_tuner_algo_token(std::string_view algo) {
  const std::string low = core::to_lower(core::trim(algo));
  for (auto t : kAlgoTokens)
    if (low == t) return std::string(t);
  if (auto a = cost::parse_algo(low)) return std::string(kAlgoTokens[static_cast<std::size_t>(*a)]);
  return std::nullopt;
}

std::optional<std::string> nccl_tuner_proto_token(std::string_view proto) {
  const std::string low = core::to_lower(core::trim(proto));
  for (auto t : kProtoTokens)
    if (low == t) return std::string(t);
  return std::nullopt;
}

core::Status check_nccl_tuner_rule(const NcclTunerRule& r) {
  if (!nccl_tuner_coll_token(r.coll))
    return core::Status::usage(std::string(measure::name_of(r.coll)) + " is not a collective NCCL asks a tuner about");
  if (!nccl_tuner_algo_token(r.algo)) return core::Status::usage("unknown algorithm '" + r.algo + "'");
  if (!nccl_tuner_proto_token(r.proto)) return core::Status::usage("unknown protocol '" + r.proto + "'");
  if (r.max_bytes < r.min_bytes) return core::Status::usage("max_bytes below min_bytes");
  if (r.channels != -1 && (r.channels < 1 || r.channels > 1024)) return core::Status::usage("channels must be -1 or 1..1024");
  if (r.nnodes == 0 || r.nnodes < -1 || r.nranks == 0 || r.nranks < -1) return core::Status::usage("nNodes/nRanks must be -1 or >= 1");
  return core::Status::ok();
}

std::string render_nccl_tuner_csv(const std::vector<NcclTunerRule>& rules, const std::string& header_comment) {
  std::ostringstream o;
  write_comment(o, header_comment);
  o << "# collective,min_bytes,max_bytes,algorithm,protocol,channels,nNodes,nRanks\n";
  for (const auto& r : rules) {
    if (auto st = check_nccl_tuner_rule(r); !st) {
      write_comment(o, "not a rule (" + st.message() + "): " + std::string(measure::name_of(r.coll)) + " " +
                           std::to_string(r.min_bytes) + "-" + std::to_string(r.max_bytes) + " " + r.algo + "/" + r.proto);
      continue;
    }
    o << csv_line(r) << "\n";
  }
  return o.str();
}

core::Result<std::vector<NcclTunerRule>> parse_nccl_tuner_csv(std::string_view text) {
  std::vector<NcclTunerRule> out;
  int lineno = 0;
  for (auto raw : core::split(text, '\n')) {
    ++lineno;
    auto line = core::trim(raw);
    if (line.empty() || line[0] == '#') continue;
    auto bad = [&](const std::string& why) { return core::Status::bad_input("line " + std::to_string(lineno) + ": " + why); };
    auto f = core::split(line, ',');
    if (f.size() < 8 || f.size() > 10) return bad("expected 8 to 10 comma-separated fields, got " + std::to_string(f.size()));
    NcclTunerRule r;
    auto coll = measure::parse_collective(core::trim(f[0]));
    if (!coll || !nccl_tuner_coll_token(*coll) || *nccl_tuner_coll_token(*coll) != core::trim(f[0]))
      return bad("unknown collective '" + std::string(core::trim(f[0])) + "' (broadcast reduce allgather reducescatter allreduce)");
    r.coll = *coll;
    auto lo = field_int(f[1], 0, static_cast<long long>(~0ull >> 1)), hi = field_int(f[2], 0, static_cast<long long>(~0ull >> 1));
    if (!lo || !hi || *hi < *lo) return bad("min_bytes/max_bytes must be sizes with min <= max");
    r.min_bytes = static_cast<std::size_t>(*lo);
    r.max_bytes = static_cast<std::size_t>(*hi);
    r.algo = std::string(core::trim(f[3]));
    r.proto = std::string(core::trim(f[4]));
    // The plugin's tokens are the lower-case CSV ones only (ncdx_tuner.c lookup is strcmp).
    if (nccl_tuner_algo_token(r.algo) != r.algo) return bad("unknown algorithm '" + r.algo + "' (tree ring collnet_direct collnet_chain nvls nvls_tree pat)");
    if (nccl_tuner_proto_token(r.proto) != r.proto) return bad("unknown protocol '" + r.proto + "' (ll ll128 simple)");
    auto ch = field_int(f[5], -1, 1024), nn = field_int(f[6], -1, 1 << 30), nr = field_int(f[7], -1, 1 << 30);
    if (!ch || *ch == 0) return bad("channels must be -1 or 1..1024");
    if (!nn || !nr) return bad("nNodes/nRanks must be -1 or a count");
    r.channels = static_cast<int>(*ch);
    r.nnodes = static_cast<int>(*nn);
    r.nranks = static_cast<int>(*nr);
    for (std::size_t i = 8; i < f.size(); ++i)
      if (field_int(f[i], -1, -1) != -1) return bad("numPipeOps/regBuff other than -1 (ncdx writes neither)");
    out.push_back(std::move(r));
  }
  return out;
}

std::string render_nccl_env_file(const std::vector<NcclEnvVar>& vars, const std::string& header_comment) {
  std::ostringstream o;
  write_comment(o, header_comment);
  for (const auto& v : vars) {
    if (!nccl_identifier(v.name) || v.value.find_first_of("\r\n") != std::string::npos) {
      write_comment(o, "not written: '" + v.name + "' is not an NCCL_* name or its value spans lines");
      continue;
    }
    o << v.name << '=' << v.value << "\n";
  }
  return o.str();
}

}  // namespace ncdx::model::tune
