#include "model/cost/nccl_log_inputs.h"

#include <cstdio>
#include <cstdlib>

#include "core/strings.h"

namespace ncdx::model::cost {
namespace {

std::vector<std::string_view> words(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size() && out.size() < 256) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    std::size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != '\t') ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

std::optional<int> int_after(std::string_view l, std::string_view key) {
  auto p = l.find(key);
  if (p == std::string_view::npos) return std::nullopt;
  auto w = words(l.substr(p + key.size()));
  if (w.empty()) return std::nullopt;
  auto v = core::parse_int(w[0]);
  if (!v || *v < 0 || *v > 100000000) return std::nullopt;
  return static_cast<int>(*v);
}

std::optional<Collective> func_row(std::string_view first) {
  for (int f = 0; f < kNumNcclFuncs; ++f)
    if (first == nccl_name(static_cast<Collective>(f))) return static_cast<Collective>(f);
  return std::nullopt;
}

void map_patterns(NcclLogFacts& f) {
  Graphs g{};
  bool ring = false, tree = false, chain = false;
  for (const auto& p : f.patterns) {
    if (p.pattern == 4 && !ring) { g[static_cast<int>(Algo::Ring)] = p; ring = true; }
    else if ((p.pattern >= 1 && p.pattern <= 3) && !tree) { g[static_cast<int>(Algo::Tree)] = p; g[static_cast<int>(Algo::Pat)] = p; tree = true; }
    else if (p.pattern == 3 && tree && !chain) { g[static_cast<int>(Algo::CollNetChain)] = p; chain = true; }
    else if (p.pattern == 6) g[static_cast<int>(Algo::CollNetDirect)] = p;
    else if (p.pattern == 5) { g[static_cast<int>(Algo::Nvls)] = p; g[static_cast<int>(Algo::NvlsTree)] = p; }
  }
  // No COLLNET_DIRECT graph in the log: releases before 2.22 search one CollNet graph (pattern
  // TREE) for both CollNet algorithms (init.cc:906 @v2.21.5-1).
  if (chain && g[static_cast<int>(Algo::CollNetDirect)].nchannels == 0)
    g[static_cast<int>(Algo::CollNetDirect)] = g[static_cast<int>(Algo::CollNetChain)];
  if (ring) {
    if (!tree) { g[static_cast<int>(Algo::Tree)] = g[static_cast<int>(Algo::Ring)]; g[static_cast<int>(Algo::Pat)] = g[static_cast<int>(Algo::Ring)]; }
    f.graphs = g;
  }
}

}  // namespace

NcclLogFacts read_nccl_log(std::string_view text) {
  NcclLogFacts f;
  std::size_t pos = 0;
  bool in_matrix = false;
  int matrix_rows = 0;
  int tuning_block_algo = 0;
  while (pos <= text.size()) {
    auto nl = text.find('\n', pos);
    std::string_view l = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    if (l.size() > 8192) l = l.substr(0, 8192);
    ++f.lines;
    if (auto p = l.find("NCCL INFO "); p != std::string_view::npos) {
      auto m = l.substr(p + 10);
      in_matrix = false;
      if (m.starts_with("NCCL version ") && !f.version) {
        std::string v(core::trim(m.substr(13)));
        f.version = NcclVersion::parse(v.substr(0, v.find('+')));
      } else if (m.find(" nRanks ") != std::string_view::npos && m.find(" nNodes ") != std::string_view::npos && !f.nnodes) {
        f.nranks = int_after(m, " nRanks ");
        f.nnodes = int_after(m, " nNodes ");
        f.local_ranks = int_after(m, " localRanks ");
      } else if (m.find("comm 0x") != std::string_view::npos && m.find(" nranks ") != std::string_view::npos && !f.nranks) {
        f.nranks = int_after(m, " nranks ");  // "comm 0x... rank 9 nranks 16 cudaDev 1 ..." (older releases)
      } else if (m.starts_with("Pattern ")) {
        Graph g;
        g.from_log = true;
        int pat = 0, cross = 0, nch = 0, same = 1;
        double bi = 0, be = 0;
        char ti[16] = {0}, te[16] = {0};
        std::string s(m);
        if (std::sscanf(s.c_str(), "Pattern %d, crossNic %d, nChannels %d, bw %lf/%lf, type %15[A-Z0-9]/%15[A-Z0-9], sameChannels %d",
                        &pat, &cross, &nch, &bi, &be, ti, te, &same) >= 7 && nch >= 0 && nch <= 1024 && bi >= 0 && be >= 0 && bi < 1e6 && be < 1e6) {
          g.pattern = pat;
          g.nchannels = nch;
          g.bw_intra = bi;
          g.bw_inter = be;
          parse_path_type(ti, g.type_intra);
          parse_path_type(te, g.type_inter);
          g.same_channels = same != 0;
          if (f.patterns.size() < 16) f.patterns.push_back(g);
        }
      } else if (m.starts_with("threadThresholds ") && f.thread_thresholds_text.empty()) {
        f.thread_thresholds_text = std::string(core::trim(m.substr(17)));
        // "8/8/64 | 128/8/64 | 512 | 512" (2.13+); 2.6 prints three triples
        std::array<int, 5> t{};
        int n = std::sscanf(f.thread_thresholds_text.c_str(), "%d/%d/%d | %d/", &t[0], &t[1], &t[2], &t[3]);
        if (n == 4) {
          auto bar = f.thread_thresholds_text.rfind('|');
          t[4] = std::atoi(f.thread_thresholds_text.c_str() + bar + 1);
          f.thread_thresholds = t;
        }
      } else if (m.find(" coll channels, ") != std::string_view::npos && !f.coll_channels) {
        auto w = words(m);
        if (!w.empty()) if (auto v = core::parse_int(w[0])) f.coll_channels = static_cast<int>(*v);
        f.nvls_channels = [&]() -> std::optional<int> {
          auto q = m.find(" nvls channels");
          if (q == std::string_view::npos) return std::nullopt;
          auto before = m.substr(0, q);
          auto comma = before.rfind(',');
          auto v = core::parse_int(core::trim(before.substr(comma == std::string_view::npos ? 0 : comma + 1)));
          return v ? std::optional<int>(static_cast<int>(*v)) : std::nullopt;
        }();
      } else if (m.starts_with("Channel ") && !f.channel_count) {
        int a = 0, b = 0;
        std::string s(m);
        if (std::sscanf(s.c_str(), "Channel %d/%d :", &a, &b) == 2 && b > 0 && b <= 1024) f.channel_count = b;
      } else if (m.starts_with("NCCL_ALGO set by environment to ")) {
        f.nccl_algo = std::string(core::trim(m.substr(32)));
      } else if (m.starts_with("NCCL_PROTO set by environment to ")) {
        f.nccl_proto = std::string(core::trim(m.substr(33)));
      } else if (m.starts_with("Enabled NCCL Func/Proto/Algo Matrix")) {
        in_matrix = true;
        matrix_rows = 0;
      } else if (m.find("Algorithm   |") != std::string_view::npos) {
        // TUNING block header: the algorithm names in this block.
        auto w = words(m);
        for (auto x : w)
          if (auto a = parse_algo(x)) { tuning_block_algo = static_cast<int>(*a); break; }
      } else {
        auto w = words(m);
        if (w.size() >= 3 && w[1] == "|")
          if (auto c = func_row(w[0])) {
            LoggedTuning t;
            t.coll = *c;
            t.first_algo = tuning_block_algo;
            for (std::size_t i = 2; i < w.size(); ++i) {
              auto cell = w[i];
              if (cell == "|") continue;
              auto slash = cell.find('/');
              std::string lat(cell.substr(0, slash)), bw;
              if (slash == std::string_view::npos) {
                // "%8.1f/%6.1f" may print "  6.8/  10.6": the bw is the next word
                if (i + 1 < w.size() && w[i + 1].starts_with("/")) { bw = std::string(w[i + 1].substr(1)); ++i; }
                else if (i + 2 < w.size() && w[i + 1] == "/") { bw = std::string(w[i + 2]); i += 2; }
                else continue;
              } else {
                bw = std::string(cell.substr(slash + 1));
                if (bw.empty() && i + 1 < w.size()) { bw = std::string(w[i + 1]); ++i; }
              }
              if (!bw.empty() && bw.back() == '|') bw.pop_back();
              auto lv = core::parse_double(lat), bv = core::parse_double(bw);
              if (lv && bv && t.lat_bw.size() < 32) t.lat_bw.emplace_back(*lv, *bv);
            }
            if (!t.lat_bw.empty() && f.tuning.size() < 64) f.tuning.push_back(std::move(t));
          }
      }
    } else if (in_matrix) {
      // "    Broadcast |        1         2         1   |             0              1  ..."
      auto w = words(l);
      if (w.size() >= 2 && w[1] == "|") {
        if (auto c = func_row(w[0])) {
          std::vector<int> nums;
          for (std::size_t i = 2; i < w.size(); ++i)
            if (auto v = core::parse_int(w[i])) nums.push_back(static_cast<int>(*v));
          if (nums.size() >= 3) {
            if (!f.enabled_proto) { f.enabled_proto.emplace(); for (auto& r : *f.enabled_proto) r.fill(-1); }
            if (!f.enabled_algo) { f.enabled_algo.emplace(); for (auto& r : *f.enabled_algo) r.fill(-1); }
            int ci = static_cast<int>(*c);
            for (int p = 0; p < 3; ++p) (*f.enabled_proto)[ci][p] = nums[p];
            for (std::size_t a = 3; a < nums.size() && a < 10; ++a) (*f.enabled_algo)[ci][a - 3] = nums[a];
          }
          if (++matrix_rows >= 5) in_matrix = false;
        }
      } else if (!w.empty() && w[0] != "Function") {
        in_matrix = false;
      }
    }
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  map_patterns(f);
  return f;
}

}  // namespace ncdx::model::cost
