#include "report/cluster/cluster_render.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "core/json.h"
#include "core/table.h"
#include "core/term.h"
#include "measure/network/net_matrix.h"
#include "measure/network/rdma_rails.h"
#include "model/cost/spec_parse.h"
#include "probe/inventory.h"
#include "report/cluster/term_heatmap.h"
#include "report/context.h"
#include "report/html.h"
#include "report/junit.h"
#include "report/prometheus.h"
#include "report/summary_json.h"

namespace ncdx::report {
namespace {

using Matrix = std::vector<std::vector<std::optional<double>>>;

using core::color_of;  // the one colour map (core/outcome.h)

nlohmann::json oj(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); }

// [i][j] of one field; latency is symmetric (the client measured it) so [j][i] mirrors [i][j].
Matrix field(const measure::NetMatrix& m, std::optional<double> measure::NetCell::*f, bool symmetric) {
  std::size_t n = m.hosts.size();
  Matrix out(n, std::vector<std::optional<double>>(n));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j) continue;
      const auto& c = symmetric && i > j ? m.cell[j][i] : m.cell[i][j];
      out[i][j] = c.*f;
    }
  return out;
}

Matrix retrans_pct(const measure::NetMatrix& m) {
  std::size_t n = m.hosts.size();
  Matrix out(n, std::vector<std::optional<double>>(n));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const auto& c = m.cell[i][j];
      if (i != j && c.retrans && c.segs_out && *c.segs_out > 0) out[i][j] = 100.0 * *c.retrans / *c.segs_out;
    }
  return out;
}

// A per-socket tcp_info counter [i][j] (i's socket to j), null where not read.
nlohmann::json count_matrix(const measure::NetMatrix& m, std::optional<std::uint32_t> measure::NetCell::*f) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& r : m.cell) {
    nlohmann::json row = nlohmann::json::array();
    for (const auto& c : r) row.push_back(c.*f ? nlohmann::json(*(c.*f)) : nlohmann::json());
    a.push_back(row);
  }
  return a;
}

// Ping-pong round trips ≥ 200 ms (NetCell::stalls), symmetric like latency: the client counted them.
nlohmann::json stall_matrix(const measure::NetMatrix& m) {
  std::size_t n = m.hosts.size();
  nlohmann::json a = nlohmann::json::array();
  for (std::size_t i = 0; i < n; ++i) {
    nlohmann::json row = nlohmann::json::array();
    for (std::size_t j = 0; j < n; ++j)
      row.push_back(i == j ? nlohmann::json() : nlohmann::json((i < j ? m.cell[i][j] : m.cell[j][i]).stalls));
    a.push_back(row);
  }
  return a;
}

nlohmann::json matrix_json(const Matrix& m) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& r : m) {
    nlohmann::json row = nlohmann::json::array();
    for (const auto& v : r) row.push_back(oj(v));
    a.push_back(row);
  }
  return a;
}

// node × check status (0 PASS 1 WARN 2 FAIL, SKIP = none) over the single-node registry.
Matrix check_matrix(const analyze::ClusterRun& run, std::vector<std::string>* ids) {
  ids->clear();
  if (run.nodes.empty()) return {};
  for (const auto& o : run.nodes.front().checks) ids->push_back(o.def->id);
  Matrix out;
  for (const auto& n : run.nodes) {
    std::vector<std::optional<double>> row;
    for (const auto& o : n.checks)
      row.push_back(o.result.status == core::Outcome::skip ? std::nullopt
                                                         : std::optional<double>(static_cast<int>(o.result.status)));
    out.push_back(row);
  }
  return out;
}

// node × GPU memory used (GiB), from each node's NVML snapshot.
Matrix gpu_mem_matrix(const analyze::ClusterRun& run, std::size_t* max_gpus) {
  *max_gpus = 0;
  for (const auto& n : run.nodes) *max_gpus = std::max(*max_gpus, n.snap.inventory.nvml.gpus.size());
  Matrix out;
  for (const auto& n : run.nodes) {
    std::vector<std::optional<double>> row(*max_gpus);
    const auto& g = n.snap.inventory.nvml.gpus;
    for (std::size_t k = 0; k < g.size(); ++k)
      if (g[k].mem_used) row[k] = static_cast<double>(*g[k].mem_used) / (1024.0 * 1024 * 1024);
    out.push_back(row);
  }
  return out;
}

// The pairs the confirmation pass re-measured alone (analyze/cluster/confirm.h), in the order run.
nlohmann::json confirm_json(const analyze::ClusterRun& run, bool timestamps) {
  const auto& m = run.confirm;
  nlohmann::json pairs = nlohmann::json::array();
  for (const auto& p : run.confirm_plan) {
    if (p.a < 0 || p.b >= static_cast<int>(m.cell.size()) || p.a >= p.b) continue;
    const auto &ab = m.cell[p.a][p.b], &ba = m.cell[p.b][p.a];
    nlohmann::json st = ab.status != "ok" ? ab.status : ba.status;
    pairs.push_back({{"hosts", {m.hosts[p.a], m.hosts[p.b]}}, {"role", p.role}, {"status", st},
                     {"latency_us", oj(ab.lat_median_us)}, {"latency_p99_us", oj(ab.lat_p99_us)},
                     {"latency_min_us", oj(ab.lat_min_us)},
                     {"stalls", ab.stalls}, {"bandwidth_gbps", {oj(ab.gbps), oj(ba.gbps)}},
                     {"retrans", ab.retrans.value_or(0) + ba.retrans.value_or(0)},
                     {"segs_out", ab.segs_out.value_or(0) + ba.segs_out.value_or(0)}});
  }
  return {{"pairs", pairs}, {"wall_s", timestamps && !run.confirm_plan.empty() ? nlohmann::json(m.wall_s) : nlohmann::json()}};
}

// RDMA cells rail by rail (measure/network/net_rdma.h): which of a node's NICs made a link slow.
nlohmann::json rails_json(const measure::NetMatrix& m) {
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t i = 0; i < m.cell.size(); ++i)
    for (std::size_t j = 0; j < m.cell[i].size(); ++j) {
      if (m.cell[i][j].rails.empty()) continue;
      nlohmann::json rails = nlohmann::json::array();
      for (const auto& r : m.cell[i][j].rails)
        rails.push_back({{"local", r.local}, {"remote", r.remote}, {"latency_us", oj(r.lat_median_us)}, {"gbps", oj(r.gbps)}});
      out.push_back({{"from", m.hosts[i]}, {"to", m.hosts[j]}, {"rails", rails}});
    }
  return out;
}

// What --transport rdma would measure on every node: the rails NCCL's IB transport would open
// (measure/network/rdma_rails.h), from each node's snapshot.
bool every_node_has_rdma_rails(const analyze::ClusterRun& run) {
  return !run.nodes.empty() && std::all_of(run.nodes.begin(), run.nodes.end(), [](const analyze::ClusterNode& n) {
    return !measure::choose_rails(n.snap.inventory.ib, n.snap.inventory.env).rails.empty();
  });
}

std::string verdict(const analyze::ClusterRun& run) {
  if (run.findings.empty()) return "healthy";
  return std::to_string(run.findings.size()) + " finding(s)";
}

// "mpi", "mpi (srun, Slurm step 12.0)", "mpi (mpirun)": the Comm and who started the ranks.
std::string via(const analyze::ClusterRun& run) {
  std::string who = run.launched_by == "slurm"     ? "srun"
                    : run.launched_by == "openmpi" ? "mpirun"
                                                   : run.launched_by;
  if (who.empty() || who == "single") return run.launcher;
  if (!run.slurm_step.empty()) who += ", Slurm step " + run.slurm_step;
  return run.launcher + " (" + who + ")";
}

std::vector<std::string> hosts_of(const analyze::ClusterRun& run) {
  std::vector<std::string> h;
  for (const auto& n : run.nodes) h.push_back(n.snap.host);
  return h;
}

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : sep) + x;
  return s;
}


// The "nccl" object (--nccl; absent without it): what ran, against which spec, the judge's
// per-size expectation and verdict, and whether ncdx's NCCL path was ever checked on GPUs.
nlohmann::json nccl_json(const analyze::ClusterNccl& n) {
  const auto& j = n.judgement;
  nlohmann::json sizes = nlohmann::json::array();
  if (n.ran)
    for (std::size_t i = 0; i < n.bench.rows.size(); ++i) {
      const auto& r = n.bench.rows[i];
      const analyze::judge::JudgedRow* jr = i < j.rows.size() ? &j.rows[i] : nullptr;
      sizes.push_back({{"bytes", r.bytes},
                       {"count", r.count},
                       {"time_us", r.out_of_place.time_us},
                       {"algbw_gbps", r.out_of_place.algbw_gbps},
                       {"busbw_gbps", r.out_of_place.busbw_gbps},
                       {"in_place_busbw_gbps", r.in_place.busbw_gbps},
                       {"wrong", r.out_of_place.wrong || r.in_place.wrong
                                     ? nlohmann::json(r.out_of_place.wrong.value_or(0) + r.in_place.wrong.value_or(0))
                                     : nlohmann::json()},
                       {"expected_busbw_gbps", jr ? oj(jr->expected_busbw) : nlohmann::json()},
                       {"pct_of_expected", jr && jr->ratio ? nlohmann::json(*jr->ratio * 100) : nlohmann::json()},
                       {"counted", jr && jr->counted},
                       {"algo", jr && !jr->algo.empty() ? nlohmann::json(jr->algo) : nlohmann::json()},
                       {"proto", jr && !jr->proto.empty() ? nlohmann::json(jr->proto) : nlohmann::json()}});
    }
  auto str_or_null = [](const std::string& s) { return s.empty() ? nlohmann::json() : nlohmann::json(s); };
  const bool judged = n.ran;
  return {{"status", n.ran ? "ran" : !n.skipped.empty() ? "skipped" : "failed"},
          {"skipped", str_or_null(n.skipped)},
          {"error", str_or_null(n.error)},
          {"unverified_on_hardware", !analyze::kNcclVerifiedOnHardware},
          {"unverified", analyze::kNcclVerifiedOnHardware
                             ? nlohmann::json()
                             : nlohmann::json("ncdx's NCCL path has run only against stand-in libraries "
                                              "(tests/measure/fake), never on GPUs: treat numbers and verdict as unchecked")},
          {"library", judged ? str_or_null(n.bench.library) : nlohmann::json()},
          {"ranks", judged ? nlohmann::json(n.bench.nranks) : nlohmann::json()},
          {"gpus_per_node", n.gpus_per_node},
          {"collective", "allreduce"},
          {"type", "float"},
          {"op", "sum"},
          {"iters", judged ? nlohmann::json(n.bench.options.iters) : nlohmann::json()},
          {"spec", n.spec ? nlohmann::json(model::cost::describe(*n.spec)) : nlohmann::json()},
          {"spec_source", str_or_null(n.spec_source)},
          {"spec_notes", n.spec_notes},
          {"spec_why_not", str_or_null(n.spec_why_not)},
          {"model_nccl_version", judged ? str_or_null(j.nccl_version) : nlohmann::json()},
          {"slow_below_pct", analyze::judge::JudgeOptions{}.slow_below * 100},
          {"sizes", sizes},
          {"avg_busbw_gbps", judged ? nlohmann::json(n.bench.avg_busbw_gbps) : nlohmann::json()},
          {"out_of_bounds", judged ? nlohmann::json(n.bench.out_of_bounds) : nlohmann::json()},
          {"pct_of_expected", judged ? oj(j.pct_of_expected) : nlohmann::json()},
          {"verdict_kind", judged ? nlohmann::json(analyze::judge::name(j.kind)) : nlohmann::json()},
          {"verdict", judged ? str_or_null(j.verdict) : nlohmann::json()},
          {"causes", judged ? j.causes : std::vector<std::string>{}}};
}

std::string nccl_text(const analyze::ClusterNccl& n, bool color) {
  std::string out = "\n" + core::paint("NCCL ALL-REDUCE", core::Color::bold, color) + " (--nccl)\n";
  if (!n.skipped.empty()) return out + "  " + n.skipped + "\n";
  if (!n.error.empty()) return out + "  " + core::paint(n.error, core::Color::red, color) + "\n";
  const auto& j = n.judgement;
  std::string per_node;
  for (int g : n.gpus_per_node) per_node += (per_node.empty() ? "" : "+") + std::to_string(g);
  out += fmt::format("  {} over {} GPUs ({} per node), float sum, {} iterations per size\n", n.bench.library,
                     n.bench.nranks, per_node, n.bench.options.iters);
  if (!analyze::kNcclVerifiedOnHardware)
    out += "  " + core::paint("UNVERIFIED ON HARDWARE", core::Color::yellow, color) +
           ": ncdx's NCCL path has run only against stand-in libraries, never on GPUs\n";
  if (n.spec) {
    out += "  expected busbw: NCCL " + j.nccl_version + "'s cost model for " + model::cost::describe(*n.spec) + " (" +
           n.spec_source + ")\n";
    for (const auto& note : n.spec_notes) out += "    " + note + "\n";
  } else {
    out += "  expected busbw: none (" + n.spec_why_not + ")\n";
  }
  core::Table t({"SIZE", "TIME µs", "ALGBW GB/s", "BUSBW GB/s", "EXPECTED", "% OF EXP", "ALGO/PROTO"});
  for (std::size_t i = 0; i < n.bench.rows.size(); ++i) {
    const auto& r = n.bench.rows[i];
    const analyze::judge::JudgedRow* jr = i < j.rows.size() ? &j.rows[i] : nullptr;
    t.add({std::to_string(r.bytes), fmt::format("{:.1f}", r.out_of_place.time_us), fmt::format("{:.2f}", r.out_of_place.algbw_gbps),
           fmt::format("{:.2f}", r.out_of_place.busbw_gbps),
           jr && jr->expected_busbw ? fmt::format("{:.2f}", *jr->expected_busbw) : "-",
           jr && jr->ratio ? fmt::format("{:.0f}{}", *jr->ratio * 100, jr->counted ? "" : " (not counted)") : "-",
           jr && !jr->algo.empty() ? jr->algo + "/" + jr->proto : "-"});
  }
  out += t.render(color);
  out += "  verdict: " + j.verdict + "\n";
  return out;
}
}  // namespace

nlohmann::json render_cluster_json(const analyze::ClusterRun& run, bool timestamps) {
  nlohmann::json nodes = nlohmann::json::array();
  for (const auto& n : run.nodes) {
    nlohmann::json checks = nlohmann::json::array();
    for (const auto& o : n.checks)
      checks.push_back({{"id", o.def->id}, {"status", core::to_string(o.result.status)}, {"evidence", o.result.evidence}});
    nodes.push_back({{"host", n.snap.host}, {"rank", n.snap.rank}, {"ranks", n.ranks},
                     {"clock_offset_us", oj(n.snap.clock_offset_us)}, {"checks", checks},
                     {"snapshot", probe::to_json(n.snap.inventory)}});
  }
  nlohmann::json cons = nlohmann::json::array();
  for (const auto& c : run.consistency) {
    nlohmann::json groups = nlohmann::json::array();
    for (const auto& g : c.groups) groups.push_back({{"value", g.value}, {"hosts", g.hosts}});
    cons.push_back({{"id", c.id}, {"title", c.title}, {"status", core::to_string(c.status)},
                    {"majority", core::opt_json(c.majority)}, {"groups", groups}, {"deviating", c.deviating},
                    {"evidence", c.evidence}, {"fix", c.fix}});
  }
  nlohmann::json net = nullptr;
  if (run.network_ran) {
    const auto& m = run.network;
    nlohmann::json status = nlohmann::json::array(), detail = nlohmann::json::array();
    for (const auto& r : m.cell) {
      nlohmann::json s = nlohmann::json::array(), d = nlohmann::json::array();
      for (const auto& c : r) {
        s.push_back(c.status);
        d.push_back(c.detail);
      }
      status.push_back(s);
      detail.push_back(d);
    }
    nlohmann::json outliers = nlohmann::json::array();
    for (const auto& o : run.outliers)
      outliers.push_back({{"kind", o.kind}, {"hosts", o.hosts}, {"metric", o.metric}, {"value", oj(o.value)},
                          {"median", oj(o.median)}, {"evidence", o.evidence},
                          {"confirmed", o.confirmed ? nlohmann::json(*o.confirmed) : nlohmann::json()},
                          {"alone_value", oj(o.alone_value)}, {"alone_median", oj(o.alone_median)}});
    net = {{"hosts", m.hosts},
           {"ifaces", m.ifaces},
           {"addrs", m.addrs},
           {"rounds", m.rounds},
           {"pair_budget_s", m.pair_budget_s},
           {"ping_iters", m.ping_iters},
           {"bw_bytes", m.bw_bytes},
           {"wall_s", timestamps ? nlohmann::json(m.wall_s) : nlohmann::json()},
           {"latency_us", matrix_json(field(m, &measure::NetCell::lat_median_us, true))},
           {"latency_p99_us", matrix_json(field(m, &measure::NetCell::lat_p99_us, true))},
           {"latency_min_us", matrix_json(field(m, &measure::NetCell::lat_min_us, true))},
           {"bandwidth_gbps", matrix_json(field(m, &measure::NetCell::gbps, false))},
           {"retrans_pct", matrix_json(retrans_pct(m))},
           {"stalls", stall_matrix(m)},
           {"retrans", count_matrix(m, &measure::NetCell::retrans)},
           {"segs_out", count_matrix(m, &measure::NetCell::segs_out)},
           {"status", status},
           {"detail", detail},
           {"outliers", outliers},
           {"confirm", confirm_json(run, timestamps)},
           {"transport", m.transport},
           {"transport_note", m.transport_note},
           {"rails", rails_json(m)}};
  }
  nlohmann::json findings = nlohmann::json::array();
  for (const auto& f : run.findings) findings.push_back(core::to_json(f));
  // What decides the exit code (analyze/cluster/cluster_run.cc): every node's checks and the
  // cross-node findings (a WARN/FAIL consistency row is one of them, so rows are not counted again).
  core::Tally n = core::tally_of(run.findings, [](const core::Finding& f) { return core::outcome_of(f.severity); });
  for (const auto& node : run.nodes)
    for (const auto& o : node.checks) n.add(o.result.status);
  auto ctx = make_context(nlohmann::json::object(), timestamps);
  nlohmann::json out = {{"schema", "ncdx.cluster/1"},
          {"context", ctx},
          {"summary", summary_json(n)},
          {"launcher", run.launcher},
          {"launched_by", run.launched_by.empty() ? nlohmann::json() : nlohmann::json(run.launched_by)},
          {"slurm_step", run.slurm_step.empty() ? nlohmann::json() : nlohmann::json(run.slurm_step)},
          {"ranks", run.size},
          {"verdict", verdict(run)},
          {"exit_code", run.exit_code},
          {"nodes", nodes},
          {"consistency", cons},
          {"network", net},
          {"network_skipped", run.network_ran ? nlohmann::json() : nlohmann::json(run.network_skip)},
          {"findings", findings}};
  if (run.nccl.requested) out["nccl"] = nccl_json(run.nccl);
  return out;
}

std::string render_cluster_text(const analyze::ClusterRun& run, bool color) {
  std::string out;
  auto hosts = hosts_of(run);
  out += core::paint("ncdx doctor --cluster", core::Color::bold, color) + " — " + std::to_string(run.nodes.size()) +
         " node(s), " + std::to_string(run.size) + " rank(s) via " + via(run) + "\n";
  core::Table nodes({"NODE", "RANKS", "CLOCK", "CHECKS (fail/warn)"});
  for (const auto& n : run.nodes) {
    int f = 0, w = 0;
    for (const auto& o : n.checks) f += o.result.status == core::Outcome::fail, w += o.result.status == core::Outcome::warn;
    std::string ranks;
    for (int r : n.ranks) ranks += (ranks.empty() ? "" : ",") + std::to_string(r);
    nodes.add({n.snap.host, ranks,
               n.snap.clock_offset_us ? fmt::format("{:+.1f} ms", *n.snap.clock_offset_us / 1e3) : "?",
               std::to_string(f) + "/" + std::to_string(w)});
  }
  out += "\n" + core::paint("NODES", core::Color::bold, color) + "\n" + nodes.render(color, 60);
  core::Table cons({"STATUS", "CHECK", "RESULT"});
  for (const auto& c : run.consistency)
    cons.add({core::Cell(core::to_string(c.status), color_of(c.status)), c.id, c.evidence});
  out += "\n" + core::paint("CONSISTENCY", core::Color::bold, color) + "\n" + cons.render(color, 120);
  out += "\n" + core::paint("NETWORK", core::Color::bold, color) + "\n";
  if (!run.network_ran) {
    out += "  not run: " + run.network_skip + "\n";
  } else {
    const auto& m = run.network;
    std::vector<std::string> labels;
    for (std::size_t i = 0; i < m.hosts.size(); ++i) labels.push_back(std::to_string(i) + " " + m.hosts[i]);
    std::string ifs;
    for (std::size_t i = 0; i < m.hosts.size(); ++i)
      ifs += (i ? ", " : "") + m.hosts[i] + "=" + (m.ifaces[i].empty() ? "?" : m.ifaces[i]) + "/" +
             (m.addrs[i].empty() ? "?" : m.addrs[i]);
    if (m.transport == "rdma")
      out += fmt::format("  RDMA: RC queue pairs, rail r of a node against rail r of the other, the slowest rail shown "
                         "(TCP on {} for the handshake)\n  {} rounds, per-pair budget {:.1f} s, {} ping-pongs per rail\n",
                         ifs, m.rounds, m.pair_budget_s, m.ping_iters);
    else
      out += fmt::format("  TCP on the interface NCCL would pick: {}\n  {} rounds, per-pair budget {:.1f} s, {} ping-pongs, "
                         "{} bytes streamed per direction\n",
                         ifs, m.rounds, m.pair_budget_s, m.ping_iters, m.bw_bytes);
    if (!m.transport_note.empty()) out += "  " + m.transport_note + "\n";
    else if (m.transport == "tcp" && every_node_has_rdma_rails(run))
      out += "  every node has an RDMA port NCCL would use instead of TCP: --transport rdma measures it\n";
    out += "\nlatency, median one-way (µs)\n" +
           term_heatmap(field(m, &measure::NetCell::lat_median_us, true), labels, labels, "µs");
    out += "\nbandwidth i→j (Gb/s)\n" + term_heatmap(field(m, &measure::NetCell::gbps, false), labels, labels, "Gb/s");
    if (m.hosts.size() <= 12) {
      std::vector<std::string> h = {"i→j"};
      for (std::size_t i = 0; i < m.hosts.size(); ++i) h.push_back(std::to_string(i));
      core::Table t(h);
      for (std::size_t i = 0; i < m.hosts.size(); ++i) {
        std::vector<core::Cell> row = {std::to_string(i)};
        for (std::size_t j = 0; j < m.hosts.size(); ++j) {
          const auto& c = i < j ? m.cell[i][j] : m.cell[j][i];
          const auto& d = m.cell[i][j];
          if (i == j) row.emplace_back("-");
          else if (d.status != "ok" && d.status != "not-run") row.emplace_back(d.status, core::Color::red);
          else row.emplace_back(fmt::format("{}/{}", c.lat_median_us ? fmt::format("{:.0f}", *c.lat_median_us) : "?",
                                            d.gbps ? fmt::format("{:.3g}", *d.gbps) : "?"));
        }
        t.add(row);
      }
      out += "\nlatency µs / bandwidth Gb/s\n" + t.render(color);
    }
    out += "\n";
    if (run.outliers.empty()) out += core::paint("  network healthy", core::Color::green, color) + ": no slow, lossy or unreachable node or link\n";
    for (const auto& o : run.outliers)
      out += "  " + core::paint(o.kind, o.confirmed == false ? core::Color::grey : core::Color::red, color) +
             (o.confirmed == false ? " (not confirmed alone)" : "") + " " + join(o.hosts, " <-> ") + ": " + o.evidence + "\n";
  }
  if (run.nccl.requested) out += nccl_text(run.nccl, color);
  std::vector<std::string> ids;
  auto cm = check_matrix(run, &ids);
  if (!cm.empty()) {
    out += "\n" + core::paint("CHECKS", core::Color::bold, color) + " per node (columns: single-node doctor checks in registry order)\n";
    out += term_heatmap(cm, hosts, ids, "0 PASS, 1 WARN, 2 FAIL, · SKIP");
  }
  std::size_t g = 0;
  auto mem = gpu_mem_matrix(run, &g);
  if (g > 0) {
    std::vector<std::string> gl;
    for (std::size_t k = 0; k < g; ++k) gl.push_back("GPU" + std::to_string(k));
    out += "\nGPU memory used (GiB)\n" + term_heatmap(mem, hosts, gl, "GiB");
  }
  if (!run.findings.empty()) {
    out += "\n" + core::paint("FINDINGS", core::Color::bold, color) + "\n";
    for (const auto& f : run.findings) {
      out += "  " + std::string(core::to_string(f.severity)) + " " + f.title + ": " + f.summary + "\n";
      for (const auto& fx : f.fixes) out += "    fix: " + fx.action + "\n";
    }
  }
  out += "\nverdict: " + verdict(run) + " (exit " + std::to_string(run.exit_code) + ")\n";
  return out;
}

std::string render_cluster_html(const analyze::ClusterRun& run) {
  auto hosts = hosts_of(run);
  std::string body = "<p>" + std::to_string(run.nodes.size()) + " node(s), " + std::to_string(run.size) +
                     " rank(s) via " + html_escape(via(run)) + " · verdict: <b>" + html_escape(verdict(run)) +
                     "</b> · exit " + std::to_string(run.exit_code) + "</p>\n";
  body += "<h2>Findings</h2>\n<table><tr><th>severity</th><th>finding</th><th>evidence</th><th>fix</th></tr>\n";
  for (const auto& f : run.findings)
    body += "<tr><td class=\"" + std::string(core::to_string(f.severity)) + "\">" + core::to_string(f.severity) +
            "</td><td>" + html_escape(f.title) + "</td><td>" + html_escape(f.summary) + "</td><td>" +
            html_escape(f.fixes.empty() ? "" : f.fixes.front().action) + "</td></tr>\n";
  body += "</table>\n<h2>Consistency</h2>\n<table><tr><th>status</th><th>check</th><th>result</th></tr>\n";
  for (const auto& c : run.consistency) {
    std::string st = core::to_string(c.status);
    body += "<tr><td class=\"" + st + "\">" + st + "</td><td>" + html_escape(c.id) + "</td><td>" +
            html_escape(c.evidence) + "</td></tr>\n";
  }
  body += "</table>\n";
  if (run.network_ran) {
    const auto& m = run.network;
    body += "<h2>Network: latency (µs, median one-way)</h2>\n" +
            svg_heatmap(field(m, &measure::NetCell::lat_median_us, true), m.hosts, m.hosts, "us") + "\n";
    body += "<h2>Network: bandwidth i→j (Gb/s)</h2>\n" +
            svg_heatmap(field(m, &measure::NetCell::gbps, false), m.hosts, m.hosts, "Gb/s") + "\n";
    body += "<h2>Network: outliers</h2>\n<ul>\n";
    if (run.outliers.empty()) body += "<li>healthy</li>\n";
    for (const auto& o : run.outliers)
      body += "<li><b>" + html_escape(o.kind) + "</b>" + (o.confirmed == false ? " (not confirmed alone)" : "") + " " +
              html_escape(join(o.hosts, " ↔ ")) + ": " +
              html_escape(o.evidence) + "</li>\n";
    body += "</ul>\n";
  } else {
    body += "<h2>Network</h2><p>not run: " + html_escape(run.network_skip) + "</p>\n";
  }
  if (run.nccl.requested)
    body += "<h2>NCCL all-reduce (--nccl)</h2>\n<pre>" + html_escape(nccl_text(run.nccl, false)) + "</pre>\n";
  std::vector<std::string> ids;
  auto cm = check_matrix(run, &ids);
  if (!cm.empty()) body += "<h2>Check status per node (0 PASS, 1 WARN, 2 FAIL)</h2>\n" + svg_heatmap(cm, hosts, ids, "") + "\n";
  std::size_t g = 0;
  auto mem = gpu_mem_matrix(run, &g);
  if (g > 0) {
    std::vector<std::string> gl;
    for (std::size_t k = 0; k < g; ++k) gl.push_back("GPU" + std::to_string(k));
    body += "<h2>GPU memory used (GiB)</h2>\n" + svg_heatmap(mem, hosts, gl, "GiB") + "\n";
  }
  return html_page("ncdx doctor --cluster", body);
}

ReportFiles cluster_report_files(const analyze::ClusterRun& run, bool timestamps) {
  ReportFiles f;
  const auto report = render_cluster_json(run, timestamps);
  f["report.json"] = core::dump_json(report);
  f["report.html"] = render_cluster_html(run);
  f["summary.txt"] = render_cluster_text(run, false);
  std::vector<JUnitCase> cases;
  for (const auto& c : run.consistency)
    cases.push_back({"consistency", c.id, c.status, c.evidence});
  if (run.network_ran) {
    if (run.outliers.empty()) cases.push_back({"network", "network.outliers", core::Outcome::pass, "healthy"});
    for (const auto& o : run.outliers)
      cases.push_back({"network", "network." + o.kind + "." + join(o.hosts, "-"),
                       o.confirmed == false                               ? core::Outcome::info
                       : o.kind == "slow-link" || o.kind == "lossy-link" ? core::Outcome::warn
                                                                          : core::Outcome::fail,
                       o.evidence});
  }
  if (run.nccl.requested) {
    const auto& n = run.nccl;
    core::Outcome o = !n.skipped.empty() ? core::Outcome::skip
                      : !n.error.empty() ? core::Outcome::warn
                                         : analyze::judge::outcome_of(n.judgement.kind);
    cases.push_back({"nccl", "nccl.allreduce", o,
                     !n.skipped.empty() ? n.skipped : !n.error.empty() ? n.error : n.judgement.verdict});
  }
  f["junit.xml"] = render_junit({{"ncdx.cluster", "", std::move(cases)}}, report["context"]);
  std::vector<Metric> m;
  if (run.network_ran) {
    const auto& nm = run.network;
    for (std::size_t i = 0; i < nm.hosts.size(); ++i)
      for (std::size_t j = 0; j < nm.hosts.size(); ++j) {
        const auto& c = nm.cell[i][j];
        std::map<std::string, std::string> l = {{"src", nm.hosts[i]}, {"dst", nm.hosts[j]}};
        if (c.gbps) m.push_back({"ncdx_cluster_bandwidth_gbps", "TCP bandwidth src to dst (Gb/s)", l, *c.gbps});
        if (c.lat_median_us)
          m.push_back({"ncdx_cluster_latency_us", "TCP one-way latency, median (us)", l, *c.lat_median_us});
      }
  }
  if (run.nccl.ran)
    for (std::size_t i = 0; i < run.nccl.bench.rows.size(); ++i) {
      const auto& r = run.nccl.bench.rows[i];
      std::map<std::string, std::string> l = {{"bytes", std::to_string(r.bytes)}};
      m.push_back({"ncdx_cluster_nccl_busbw_gbps", "NCCL all-reduce busbw over every GPU (GB/s)", l, r.out_of_place.busbw_gbps});
      const auto& j = run.nccl.judgement;
      if (i < j.rows.size() && j.rows[i].expected_busbw)
        m.push_back({"ncdx_cluster_nccl_expected_busbw_gbps", "busbw NCCL's cost model expects (GB/s)", l, *j.rows[i].expected_busbw});
    }
  m.push_back({"ncdx_cluster_exit_code", "worst outcome of the cluster run (0 ok, 1 warn, 2 fail)", {},
               static_cast<double>(run.exit_code)});
  f["metrics.prom"] = render_prometheus(m);
  return f;
}

}  // namespace ncdx::report
