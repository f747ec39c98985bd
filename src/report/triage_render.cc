#include "report/triage_render.h"

#include <map>
#include <fmt/format.h>

#include "core/json.h"
#include "core/outcome.h"
#include "core/ranges.h"
#include "core/strings.h"
#include "core/table.h"
#include "core/term.h"
#include "report/text_wrap.h"
#include "report/summary_json.h"
#include "report/triage_files.h"

namespace ncdx::report {
namespace {
using core::Color;

Color severity_color(core::Severity s) { return core::color_of(core::outcome_of(s)); }

std::string culprit_text(const core::Culprit& c) {
  std::vector<std::string> parts;
  if (!c.hosts.empty()) parts.push_back("host " + core::format_hostlist(c.hosts));
  // Ranges (0-31,40,48-63), never a list cut mid-number: 16 groups, then ",…".
  if (!c.ranks.empty()) parts.push_back("rank " + core::format_ranges(c.ranks, {.pair_as_range = false, .max_groups = 16}));
  if (!c.devices.empty()) parts.push_back("device " + core::join(c.devices, ", "));
  if (c.component) parts.push_back(*c.component);
  return parts.empty() ? "not identified" : core::join(parts, "; ");
}

std::string evidence_line(const core::Evidence& e) {
  std::string where = e.file;
  if (e.line) where += ":" + std::to_string(*e.line);
  std::vector<std::string> who;
  if (e.rank) who.push_back("rank " + std::to_string(*e.rank));
  if (e.host) who.push_back(*e.host);
  if (e.time && e.text.find(*e.time) == std::string::npos) who.push_back(*e.time);  // not twice
  std::string out = where.empty() ? "" : where + " ";
  if (!who.empty()) out += "[" + core::join(who, " ") + "] ";
  return out + e.text;
}

std::string fix_line(std::size_t i, const core::Fix& f, std::size_t width) {
  std::string out = hanging(fmt::format("  {}. ", i), f.action, width);
  if (f.env) out += hanging("     env: ", *f.env, width);
  if (f.command) out += hanging("     run: ", *f.command, width);
  if (f.applies) out += hanging("     applies: ", *f.applies, width);
  if (f.doc) out += hanging("     see: ", *f.doc, width);
  return out;
}

nlohmann::json facts_json(const analyze::ProcessFacts& p) {
  return {{"host", core::opt_json(p.host)},
          {"pid", core::opt_json(p.pid)},
          {"nranks", core::opt_json(p.nranks)},
          {"cuda_devices", p.cuda_devs},
          {"files", p.files},
          {"nccl_version", core::opt_json(p.nccl_version)},
          {"cuda_driver", core::opt_json(p.cuda_driver)},
          {"init_complete", p.init_start || p.init_complete ? nlohmann::json(p.init_complete) : nlohmann::json(nullptr)},
          {"last_opcount", core::opt_json(p.last_opcount)},
          {"timeout", p.timeout_op || p.timeout_seq
                          ? nlohmann::json{{"seq", core::opt_json(p.timeout_seq)},
                                           {"op", core::opt_json(p.timeout_op)},
                                           {"timeout_ms", core::opt_json(p.timeout_ms)},
                                           {"ran_for_ms", core::opt_json(p.ran_for_ms)}}
                          : nlohmann::json(nullptr)},
          {"last_enqueued", core::opt_json(p.last_enqueued)},
          {"last_completed", core::opt_json(p.last_completed)},
          {"lines", p.lines},
          {"error_lines", p.error_lines}};
}

}  // namespace

std::string render_triage_text(const analyze::TriageResult& r, bool color, std::size_t width) {
  const auto& v = r.verdict;
  std::string out;
  out += core::paint("VERDICT", Color::bold, color) + "  " +
         core::paint(v.klass, severity_color(v.severity), color) +
         fmt::format("  ({}, confidence {:.2f})\n", core::to_string(v.severity), v.confidence);
  out += hanging("  ", v.title, width);
  if (v.klass != "none") out += hanging("  culprit: ", culprit_text(v.culprit), width);
  if (!v.summary.empty()) out += hanging("  cause:   ", v.summary, width);
  out += "  id:      " + v.id + "\n";
  if (!v.evidence.empty()) {
    out += "\n" + core::paint("EVIDENCE", Color::bold, color) + "\n";
    for (const auto& e : v.evidence) out += hanging("  ", evidence_line(e), width, 4);  // a line's continuation indented deeper
  }
  if (!v.fixes.empty()) {
    out += "\n" + core::paint("FIXES", Color::bold, color) + "\n";
    for (std::size_t i = 0; i < v.fixes.size(); ++i) out += fix_line(i + 1, v.fixes[i], width);
  }
  if (!r.findings.empty()) {
    out += "\n" + core::paint("OTHER FINDINGS", Color::bold, color) + "\n";
    core::Table t({"severity", "class", "id", "culprit", "first evidence"});
    for (const auto& f : r.findings)
      t.add({{core::to_string(f.severity), severity_color(f.severity)}, f.klass, f.id, culprit_text(f.culprit),
             f.evidence.empty() ? std::string() : evidence_line(f.evidence.front())});
    std::string table = t.render(color, 90);
    std::size_t widest = 0;
    for (std::string_view rest = table; !rest.empty();) {
      auto nl = rest.find('\n');
      widest = std::max(widest, core::display_width(rest.substr(0, nl)));
      rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    }
    if (width == 0 || widest <= width) {
      out += table;
    } else {
      // Too wide for the terminal: one block per finding, its evidence cut to one line.
      for (const auto& f : r.findings) {
        out += "  " + core::paint(core::to_string(f.severity), severity_color(f.severity), color) + "  " + f.klass + "  " + f.id + "\n";
        out += hanging("     culprit: ", culprit_text(f.culprit), width);
        if (!f.evidence.empty()) {
          auto lines = core::wrap_text(evidence_line(f.evidence.front()), width > 5 + 24 ? width - 6 : 24);
          out += "     " + lines[0] + (lines.size() > 1 ? "…" : "") + "\n";
        }
      }
    }
  }
  if (!r.ranks.empty()) {
    out += "\n" + core::paint("RANKS", Color::bold, color) + fmt::format(" ({} seen)\n", r.ranks.size());
    core::Table t({"rank", "host", "nccl", "init", "last opCount", "timeout (seq/op)", "lines"});
    std::size_t shown = 0;
    for (const auto& [rank, p] : r.ranks) {
      // Large jobs: show the interesting ranks (errors, timeouts) and the first few.
      bool interesting = p.error_lines > 0 || p.timeout_op || (p.init_start && !p.init_complete);
      if (shown >= 16 && !interesting) continue;
      if (++shown > 64) break;
      t.add({std::to_string(rank), p.host.value_or("?"), p.nccl_version.value_or("?"),
             p.init_start || p.init_complete ? (p.init_complete ? "ok" : "stuck") : "?",
             p.last_opcount ? std::to_string(*p.last_opcount) : "-",
             p.timeout_op ? fmt::format("{}/{}", p.timeout_seq ? std::to_string(*p.timeout_seq) : "?", *p.timeout_op) : "-",
             std::to_string(p.lines)});
    }
    out += t.render(color, 40);
  }
  const auto& topo = r.topology;
  if (!topo.networks.empty() || !topo.transports.empty() || !topo.ib_devices.empty() || !topo.socket_ifs.empty()) {
    out += "\n" + core::paint("TOPOLOGY", Color::bold, color) + "\n";
    if (!topo.networks.empty()) out += "  network:    " + core::join({topo.networks.begin(), topo.networks.end()}, ", ") + "\n";
    if (!topo.ib_devices.empty()) out += "  IB devices: " + core::join({topo.ib_devices.begin(), topo.ib_devices.end()}, " ") + "\n";
    if (!topo.socket_ifs.empty()) out += "  sockets:    " + core::join({topo.socket_ifs.begin(), topo.socket_ifs.end()}, " ") + "\n";
    if (!topo.transports.empty()) {
      std::vector<std::string> ts;
      for (const auto& [k, n] : topo.transports) ts.push_back(fmt::format("{} ×{}", k, n));
      out += "  transports: " + core::join(ts, ", ") + "\n";
    }
    if (topo.max_channels) out += fmt::format("  channels:   {}\n", *topo.max_channels);
    if (!topo.rings.empty())
      out += fmt::format("  rings:      {} (channel {}: {})\n", topo.rings.size(), topo.rings.begin()->first,
                         topo.rings.begin()->second);
    if (!topo.trees.empty()) {
      std::vector<std::string> ts;
      for (const auto& [rank, tree] : topo.trees) {
        if (ts.size() == 8) break;
        ts.push_back(tree);
      }
      out += fmt::format("  trees:      channel 0, children->rank->parent: {}{}\n", core::join(ts, "  "),
                         topo.trees.size() > ts.size() ? fmt::format("  (+{} ranks)", topo.trees.size() - ts.size()) : "");
    }
    if (!topo.peer_transports.empty()) {
      // Pairs per transport, then the pairs of the rarest transport (the odd path is the one to see).
      std::map<std::string, std::vector<std::string>> by;
      for (const auto& [pair, t] : topo.peer_transports) by[t].push_back(fmt::format("{}->{}", pair.first, pair.second));
      std::vector<std::string> counts;
      const std::vector<std::string>* rarest = nullptr;
      std::string rarest_name;
      for (const auto& [t, pairs] : by) {
        counts.push_back(fmt::format("{} {}", t, pairs.size()));
        if (!rarest || pairs.size() < rarest->size()) rarest = &pairs, rarest_name = t;
      }
      out += fmt::format("  peers:      {} rank pairs: {}\n", topo.peer_transports.size(), core::join(counts, ", "));
      if (by.size() > 1) {
        std::vector<std::string> shown(rarest->begin(), rarest->begin() + std::min<std::size_t>(rarest->size(), 12));
        out += fmt::format("              via {}: {}{}\n", rarest_name, core::join(shown, " "), rarest->size() > shown.size() ? " …" : "");
      }
    }
  }
  out += fmt::format("\nread {} lines, {} from {} input(s)", r.input.lines, core::human_bytes(static_cast<double>(r.input.bytes)),
                     r.input.files.size());
  if (r.input.truncated_lines) out += fmt::format(", {} over-long lines cut", r.input.truncated_lines);
  out += "\n";
  for (const auto& p : r.input.problems) out += "  problem: " + p.message() + "\n";
  return out;
}

nlohmann::json triage_json(const analyze::TriageResult& r, const nlohmann::json& context) {
  nlohmann::json findings = nlohmann::json::array();
  for (const auto& f : r.findings) findings.push_back(core::to_json(f));
  nlohmann::json ranks = nlohmann::json::object();
  for (const auto& [rank, p] : r.ranks) ranks[std::to_string(rank)] = facts_json(p);
  nlohmann::json unranked = nlohmann::json::array();
  for (const auto& p : r.unranked) unranked.push_back(facts_json(p));
  const auto& t = r.topology;
  nlohmann::json topo = {{"networks", t.networks},
                         {"ib_devices", t.ib_devices},
                         {"socket_interfaces", t.socket_ifs},
                         {"ib_no_device", t.ib_no_device},
                         {"verbs_missing", t.verbs_missing},
                         {"transports", t.transports},
                         {"channels", core::opt_json(t.max_channels)}};
  nlohmann::json rings = nlohmann::json::object(), trees = nlohmann::json::object(), peers = nlohmann::json::array();
  for (const auto& [c, order] : t.rings) rings[std::to_string(c)] = order;
  for (const auto& [rank, tree] : t.trees) trees[std::to_string(rank)] = tree;
  for (const auto& [pair, tr] : t.peer_transports) peers.push_back({{"from", pair.first}, {"to", pair.second}, {"transport", tr}});
  topo["rings"] = rings;
  topo["trees"] = trees;
  topo["peers"] = peers;
  nlohmann::json problems = nlohmann::json::array();
  for (const auto& p : r.input.problems) problems.push_back(p.message());
  // The verdict (PASS when no failure was found: the outcome its exit code is) and every finding.
  core::Tally n;
  n.add(triage_outcome(r));
  for (const auto& f : r.findings) n.add(core::outcome_of(f.severity));
  return {{"schema", "ncdx.triage/1"},
          {"summary", summary_json(n)},
          {"verdict", core::to_json(r.verdict)},
          {"findings", findings},
          {"ranks", ranks},
          {"unranked", unranked},
          {"topology", topo},
          {"inputs",
           {{"files", r.input.files},
            {"lines", r.input.lines},
            {"bytes", r.input.bytes},
            {"truncated_lines", r.input.truncated_lines},
            {"problems", problems}}},
          {"context", context}};
}

std::string render_alert_line(const core::Finding& f, bool color) {
  std::string where = f.evidence.empty() ? std::string() : evidence_line(f.evidence.front());
  return core::paint(core::to_string(f.severity), severity_color(f.severity), color) + " " + f.klass + " " + f.id +
         ": " + f.title + (where.empty() ? "" : " — " + where) + "\n";
}

}  // namespace ncdx::report
