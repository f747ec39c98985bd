#include "report/doctor_render.h"

#include <ctime>
#include <map>

#include <fmt/format.h>

#include "analyze/doctor/facts.h"
#include "core/json.h"
#include "core/strings.h"
#include "core/table.h"
#include "report/context.h"
#include "report/html.h"
#include "report/junit.h"
#include "report/prometheus.h"
#include "report/summary_json.h"
#include "report/text_wrap.h"

namespace ncdx::report {
using core::Outcome;

namespace {

// The value of ncdx_doctor_check_status (its HELP text documents it). A check that did not run
// is below PASS, so the usual `max(ncdx_doctor_check_status) >= 2` alert fires on failures only,
// never on skipped checks (a skip is found with `== -1`, or with the status label below).
int prom_status_value(Outcome o) {
  switch (o) {
    case Outcome::pass: return 0;
    case Outcome::warn: return 1;
    case Outcome::fail: return 2;
    case Outcome::info:
    case Outcome::skip: return -1;
  }
  return -1;
}

// Categories in report order; checks keep registry order inside each.
std::vector<std::string> categories(const analyze::DoctorRun& run) {
  std::vector<std::string> out;
  for (const auto& o : run.outcomes)
    if (std::find(out.begin(), out.end(), o.def->category) == out.end()) out.emplace_back(o.def->category);
  return out;
}

std::string render_matrix(const analyze::TopoView& t, bool color) {
  std::vector<std::string> headers = {""};
  headers.insert(headers.end(), t.labels.begin(), t.labels.end());
  headers.push_back("CPU Affinity");
  headers.push_back("NUMA");
  core::Table tab(headers);
  for (std::size_t i = 0; i < t.labels.size(); ++i) {
    std::vector<core::Cell> row = {core::Cell(t.labels[i], core::Color::bold)};
    for (const auto& c : t.cell[i]) row.emplace_back(c.empty() ? "?" : c);
    row.emplace_back(t.cpu_affinity[i].empty() ? "N/A" : t.cpu_affinity[i]);
    row.emplace_back(t.numa[i].empty() ? "N/A" : t.numa[i]);
    tab.add(std::move(row));
  }
  return tab.render(color);
}

std::string version_text(const std::optional<int>& v) {
  if (!v) return "?";
  return std::to_string(*v / 1000) + "." + std::to_string(*v % 1000 / 10);
}

}  // namespace

namespace {

// The order rows and categories are shown in: what needs attention first (FAIL, WARN, INFO, PASS,
// SKIP), unlike core::rank, which orders "worst" for exit codes.
int show_order(Outcome o) {
  switch (o) {
    case Outcome::fail: return 0;
    case Outcome::warn: return 1;
    case Outcome::info: return 2;
    case Outcome::pass: return 3;
    case Outcome::skip: return 4;
  }
  return 4;
}

std::string upper(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// One line per skip reason: "16  no NVIDIA driver (and no NVIDIA GPU on PCI): gpu.count, …".
struct SkipGroup {
  std::string reason;
  std::vector<std::string> ids;
};

void add_skip(std::vector<SkipGroup>& groups, const std::string& reason, const std::string& id) {
  for (auto& g : groups)
    if (g.reason == reason) return g.ids.push_back(id);
  groups.push_back({reason, {id}});
}

}  // namespace

std::string render_doctor_text(const analyze::DoctorRun& run, const DoctorTextStyle& style) {
  const bool color = style.color;
  const auto& inv = run.inventory;
  auto count = core::tally_of(run.outcomes, [](const analyze::CheckOutcome& o) { return o.result.status; });
  std::string out;
  out += core::paint("ncdx doctor", core::Color::bold, color) + " — " + inv.os.hostname.value_or("?") + " (" + inv.origin + ")\n";
  out += hanging("", "kernel " + inv.os.kernel.value_or("?") + " · driver " + inv.os.driver_version.value_or(inv.nvml.driver_version.value_or("none")) +
                      " · GPUs " + std::to_string(analyze::gpu_count(inv)) + " (NVML: " + probe::to_string(inv.nvml.source.state) + ", PCI: " +
                      std::to_string(inv.pci_gpus.size()) + ") · RDMA devices " + std::to_string(inv.ib.size()) + " · libnccl " +
                      std::to_string(inv.nccl_libs.size()),
                  style.width);
  // Categories by their most urgent row (stable: registry order among equals).
  auto cats = categories(run);
  auto cat_order = [&](const std::string& cat) {
    int best = 4;
    for (const auto& o : run.outcomes)
      if (o.def->category == cat) best = std::min(best, show_order(o.result.status));
    return best;
  };
  std::stable_sort(cats.begin(), cats.end(), [&](const auto& a, const auto& b) { return cat_order(a) < cat_order(b); });
  std::vector<SkipGroup> skipped;
  for (const auto& cat : cats) {
    std::vector<const analyze::CheckOutcome*> rows;
    for (const auto& o : run.outcomes) {
      if (o.def->category != cat) continue;
      if (!style.all && o.result.status == Outcome::skip) add_skip(skipped, o.result.evidence, o.def->id);
      else rows.push_back(&o);
    }
    if (rows.empty()) continue;
    std::stable_sort(rows.begin(), rows.end(),
                     [](const auto* a, const auto* b) { return show_order(a->result.status) < show_order(b->result.status); });
    core::Table t({"STATUS", "CHECK", "RESULT"});
    for (const auto* o : rows)
      t.add({core::Cell(core::to_string(o->result.status), core::color_of(o->result.status)), o->def->id, o->result.evidence});
    out += "\n" + core::paint(upper(cat), core::Color::bold, color) + "\n" + t.render(color, style.width ? 0 : 140, style.width);
  }
  std::string fixes;
  for (Outcome sev : {Outcome::fail, Outcome::warn})
    for (const auto& o : run.outcomes)
      if (!o.result.fix.empty() && o.result.status == sev) {
        const std::size_t plain = std::string_view(core::to_string(sev)).size() + std::string_view(o.def->id).size() + 5;  // "  SEV id: "
        fixes += hanging("  " + core::paint(core::to_string(sev), core::color_of(sev), color) + " " + o.def->id + ": ", o.result.fix,
                         style.width, plain);
      }
  if (!fixes.empty()) out += "\n" + core::paint("FIXES", core::Color::bold, color) + "\n" + fixes;
  if (!run.topo.labels.empty()) {
    out += "\n" + core::paint("TOPOLOGY", core::Color::bold, color) + "\n" +
           hanging("", "(X self, NV# NVLinks, PIX one PCIe switch, PXB several switches, PHB host bridge, NODE same NUMA node, SYS across sockets)", style.width);
    out += render_matrix(run.topo, color);
    for (const auto& l : run.topo.legend_nics) out += "  " + l + "\n";
  }
  if (!run.p2p.empty()) {
    std::vector<std::string> h = {""};
    for (std::size_t i = 0; i < run.p2p.size(); ++i) h.push_back("GPU" + std::to_string(i));
    core::Table t(h);
    for (std::size_t i = 0; i < run.p2p.size(); ++i) {
      std::vector<core::Cell> row = {"GPU" + std::to_string(i)};
      for (const auto& c : run.p2p[i]) row.emplace_back(c.empty() ? "?" : c, c == "OK" || c == "X" ? core::Color::none : core::Color::yellow);
      t.add(std::move(row));
    }
    out += "\n" + core::paint("P2P READ", core::Color::bold, color) + "\n" +
           hanging("", "(OK, CNS chipset not supported, GNS GPU not supported, TNS topology not supported, DIS disabled by regkey, NS not supported)", style.width) +
           t.render(color);
  }
  core::Table mt({"STATUS", "MEASUREMENT", "RESULT"});
  for (const auto& m : run.measurements) {
    if (!style.all && m.status == Outcome::skip) {
      add_skip(skipped, m.detail, m.id);
      continue;
    }
    std::string res = m.detail;
    if (m.value) {
      res = fmt::format("{:.2f} {}", *m.value, m.unit);
      if (m.expected) res += fmt::format(" (expected {:.2f}, {:.0f}%)", *m.expected, m.pct_of_expected.value_or(0));
    }
    mt.add({core::Cell(core::to_string(m.status), core::color_of(m.status)), m.id, res});
  }
  if (mt.size() > 0) out += "\n" + core::paint("MEASUREMENTS", core::Color::bold, color) + "\n" + mt.render(color, style.width ? 0 : 140, style.width);
  if (!skipped.empty()) {
    std::size_t n = 0;
    for (const auto& g : skipped) n += g.ids.size();
    std::stable_sort(skipped.begin(), skipped.end(), [](const auto& a, const auto& b) { return a.ids.size() > b.ids.size(); });
    out += "\n" + core::paint("SKIPPED", core::Color::bold, color) + "\n" +
           hanging("", std::to_string(n) + " checks and measurements could not run here; --all lists them in place", style.width);
    // "  16  reason" then the ids indented under it, each wrapped to the width.
    const std::size_t text_w = style.width > 8 + 24 ? style.width - 8 : (style.width ? 24 : 0);
    for (const auto& g : skipped) {
      std::string num = std::to_string(g.ids.size());
      out += hanging("  " + num + std::string(num.size() < 6 ? 6 - num.size() : 1, ' '), g.reason, style.width, 8);
      for (const auto& l : core::wrap_text(core::join(g.ids, ", "), text_w)) out += std::string(8, ' ') + core::paint(l, core::Color::grey, color) + "\n";
    }
  }
  out += "\n" + std::to_string(run.outcomes.size()) + " checks: " + core::paint(std::to_string(count.pass) + " PASS", core::color_of(Outcome::pass), color) +
         ", " + core::paint(std::to_string(count.warn) + " WARN", core::color_of(Outcome::warn), color) + ", " +
         core::paint(std::to_string(count.fail) + " FAIL", core::color_of(Outcome::fail), color) + ", " +
         std::to_string(count.skip) + " SKIP → exit " + std::to_string(run.exit_code) + "\n";
  return out;
}

nlohmann::json render_doctor_json(const analyze::DoctorRun& run, bool timestamps) {
  const auto& inv = run.inventory;
  nlohmann::json checks = nlohmann::json::array();
  // Checks and measurements both decide the exit code (analyze/doctor/run.cc): both are counted.
  auto n = core::tally_of(run.outcomes, [](const analyze::CheckOutcome& o) { return o.result.status; });
  for (const auto& m : run.measurements) n.add(m.status);
  const nlohmann::json summary = summary_json(n);
  for (const auto& o : run.outcomes) {
    std::string st = core::to_string(o.result.status);
    checks.push_back({{"id", o.def->id},
                      {"category", o.def->category},
                      {"status", st},
                      {"title", o.def->title},
                      {"evidence", o.result.evidence},
                      {"fix", o.result.fix.empty() ? nlohmann::json(nullptr) : nlohmann::json(o.result.fix)},
                      {"cost", o.def->cost},
                      {"fact", o.def->fact}});
  }
  nlohmann::json meas = nlohmann::json::array();
  for (const auto& m : run.measurements) meas.push_back(measure::to_json(m));
  auto matrix_json = [](const std::vector<std::vector<std::optional<double>>>& m) {
    if (m.empty()) return nlohmann::json(nullptr);
    nlohmann::json out = nlohmann::json::array();
    for (const auto& r : m) {
      nlohmann::json row = nlohmann::json::array();
      for (const auto& v : r) row.push_back(core::opt_json(v));
      out.push_back(row);
    }
    return out;
  };
  nlohmann::json seen = nlohmann::json::object();
  std::optional<std::string> nccl;
  for (const auto& l : inv.nccl_libs)
    if (l.version && !nccl) nccl = l.version;
  if (nccl) seen["nccl"] = *nccl;
  if (inv.cuda.driver_version) seen["cuda"] = version_text(inv.cuda.driver_version);
  if (auto d = inv.os.driver_version ? inv.os.driver_version : inv.nvml.driver_version) seen["driver"] = *d;
  auto ctx = make_context(seen, timestamps);
  // The context describes the machine the report is about (a bundle/snapshot may come from
  // another host): host and env come from the inventory.
  ctx["host"] = core::opt_json(inv.os.hostname);
  ctx["env"] = inv.env;
  ctx["origin"] = inv.origin;
  nlohmann::json topo = {{"labels", run.topo.labels}, {"devices", run.topo.devices}, {"cells", run.topo.cell},
                         {"cpu_affinity", run.topo.cpu_affinity}, {"numa", run.topo.numa}};
  return {{"schema", "ncdx.doctor/1"}, {"context", ctx},       {"summary", summary},
          {"exit_code", run.exit_code}, {"checks", checks},     {"measurements", meas},
          {"matrices", {{"copy_bandwidth_gbps", matrix_json(run.p2p_gbps)}, {"copy_latency_us", matrix_json(run.p2p_latency_us)}}},
          {"topology", topo},           {"p2p", run.p2p},       {"inventory", probe::to_json(inv)}};
}

std::string render_doctor_html(const analyze::DoctorRun& run, const nlohmann::json& report) {
  std::string body = "<p>" + html_escape(run.inventory.os.hostname.value_or("?")) + " · " + html_escape(run.inventory.origin) + " · exit " +
                     std::to_string(run.exit_code) + "</p>\n<h2>Checks</h2>\n<table><tr><th>Status</th><th>Category</th><th>Check</th><th>Result</th><th>Fix</th></tr>\n";
  for (const auto& o : run.outcomes) {
    std::string st = core::to_string(o.result.status);
    body += "<tr><td class=\"" + st + "\">" + st + "</td><td>" + html_escape(o.def->category) + "</td><td title=\"" + html_escape(o.def->fact) + "\">" +
            html_escape(o.def->id) + "</td><td>" + html_escape(o.result.evidence) + "</td><td>" + html_escape(o.result.fix) + "</td></tr>\n";
  }
  body += "</table>\n";
  const auto& inv = run.inventory;
  // GPU memory used per GPU (one row), from NVML.
  std::vector<std::vector<std::optional<double>>> mem(1);
  std::vector<std::string> gl;
  for (const auto& g : inv.nvml.gpus) {
    gl.push_back("GPU" + std::to_string(g.index));
    mem[0].push_back(g.mem_used ? std::optional<double>(static_cast<double>(*g.mem_used) / (1ULL << 30)) : std::nullopt);
  }
  if (gl.empty())  // GPUs on PCI without a driver: the map shows them, all N/A
    for (std::size_t i = 0; i < inv.pci_gpus.size(); ++i) {
      gl.push_back("GPU" + std::to_string(i));
      mem[0].push_back(std::nullopt);
    }
  body += "<h2>GPU memory used</h2>\n";
  body += gl.empty() ? "<p>No GPU memory data (" + html_escape(std::string(probe::to_string(inv.nvml.source.state)) + ": " + inv.nvml.source.detail) + ").</p>\n"
                     : svg_heatmap(mem, {"used"}, gl, "GiB") + "\n";
  std::string gpu_why = "not measured";
  for (const auto& m : run.measurements)
    if (m.id == "gpu.copies" || m.status == core::Outcome::skip) {
      gpu_why = m.detail;
      break;
    }
  for (auto [title, mat, unit] : {std::tuple{"GPU copy bandwidth matrix", &run.p2p_gbps, "GB/s"},
                                  std::tuple{"GPU copy latency matrix", &run.p2p_latency_us, "us"}}) {
    body += std::string("<h2>") + title + "</h2>\n";
    if (mat->empty()) {
      body += "<p class=\"SKIP\">SKIP: " + html_escape(gpu_why) + "</p>\n";
      continue;
    }
    std::vector<std::string> labels;
    for (std::size_t i = 0; i < mat->size(); ++i) labels.push_back("GPU" + std::to_string(i));
    body += svg_heatmap(*mat, labels, labels, unit) + "\n";
  }
  body += "<h2>Measurements</h2>\n<table><tr><th>Status</th><th>Measurement</th><th>Value</th><th>Expected</th><th>Detail</th></tr>\n";
  for (const auto& m : run.measurements) {
    std::string st = core::to_string(m.status);
    body += "<tr><td class=\"" + st + "\">" + st + "</td><td>" + html_escape(m.id) + "</td><td>" +
            (m.value ? fmt::format("{:.2f} {}", *m.value, html_escape(m.unit)) : std::string("null")) + "</td><td>" +
            (m.expected ? fmt::format("{:.2f}", *m.expected) : std::string("null")) + "</td><td>" + html_escape(m.detail) + "</td></tr>\n";
  }
  body += "</table>\n";
  if (!run.topo.labels.empty()) {
    body += "<h2>Topology</h2>\n<table><tr><th></th>";
    for (const auto& l : run.topo.labels) body += "<th>" + html_escape(l) + "</th>";
    body += "<th>CPU Affinity</th><th>NUMA</th></tr>\n";
    for (std::size_t i = 0; i < run.topo.labels.size(); ++i) {
      body += "<tr><th>" + html_escape(run.topo.labels[i]) + "</th>";
      for (const auto& c : run.topo.cell[i]) body += "<td>" + html_escape(c) + "</td>";
      body += "<td>" + html_escape(run.topo.cpu_affinity[i]) + "</td><td>" + html_escape(run.topo.numa[i]) + "</td></tr>\n";
    }
    body += "</table>\n";
  }
  body += "<h2>Inventory</h2>\n<pre>" + html_escape(core::dump_json(report["inventory"])) + "</pre>\n";
  return html_page("ncdx doctor", body);
}

std::string render_doctor_junit(const analyze::DoctorRun& run, const nlohmann::json& report) {
  std::vector<JUnitCase> cases;
  for (const auto& o : run.outcomes)
    cases.push_back({o.def->category, o.def->id, o.result.status,
                     o.result.evidence + (o.result.fix.empty() ? "" : " | fix: " + o.result.fix)});
  return render_junit({{"ncdx.doctor", run.inventory.os.hostname.value_or(""), std::move(cases)}}, report.value("context", nlohmann::json::object()));
}

std::string render_doctor_prom(const analyze::DoctorRun& run, std::optional<double> now) {
  std::vector<Metric> m;
  std::string host = run.inventory.os.hostname.value_or("");
  for (const auto& o : run.outcomes)
    m.push_back({"ncdx_doctor_check_status", "doctor check status: -1 SKIP or INFO, 0 PASS, 1 WARN, 2 FAIL",
                 {{"check", o.def->id}, {"category", o.def->category}, {"host", host}, {"status", core::to_string(o.result.status)}},
                 static_cast<double>(prom_status_value(o.result.status))});
  // node_exporter textfile collectors keep serving a file after the run that wrote it stopped: the
  // time of the run says how old the statuses are (left out with --no-timestamps).
  if (now) m.push_back({"ncdx_doctor_last_run_timestamp_seconds", "when this doctor run ended (Unix time)", {{"host", host}}, *now});
  m.push_back({"ncdx_doctor_exit_code", "worst status of the run (0 ok, 1 warn, 2 fail)", {{"host", host}}, static_cast<double>(run.exit_code)});
  for (const auto& g : run.inventory.nvml.gpus) {
    std::map<std::string, std::string> l = {{"gpu", std::to_string(g.index)}, {"bus_id", g.bus_id.value_or("")}, {"host", host}};
    if (g.mem_used) m.push_back({"ncdx_gpu_memory_used_bytes", "GPU memory used (NVML)", l, static_cast<double>(*g.mem_used)});
    if (g.temp) m.push_back({"ncdx_gpu_temperature_celsius", "GPU temperature (NVML)", l, static_cast<double>(*g.temp)});
  }
  for (const auto& d : run.inventory.ib)
    for (const auto& p : d.ports)
      if (p.rate_gbps)
        m.push_back({"ncdx_ib_port_rate_gbps", "IB/RoCE port rate", {{"device", d.name}, {"port", std::to_string(p.port)}, {"host", host}}, *p.rate_gbps});
  for (const auto& x : run.measurements)
    if (x.value) m.push_back({"ncdx_doctor_measurement", "doctor measurement value (unit in the label)", {{"id", x.id}, {"unit", x.unit}, {"host", host}}, *x.value});
  if (run.inventory.os.shm_size_bytes)
    m.push_back({"ncdx_shm_size_bytes", "/dev/shm size from the mount table", {{"host", host}}, static_cast<double>(*run.inventory.os.shm_size_bytes)});
  return render_prometheus(m);
}

ReportFiles doctor_report_files(const analyze::DoctorRun& run, bool timestamps) {
  auto j = render_doctor_json(run, timestamps);
  return {{"report.json", core::dump_json(j)},
          {"report.html", render_doctor_html(run, j)},
          {"summary.txt", render_doctor_text(run)},
          {"junit.xml", render_doctor_junit(run, j)},
          {"metrics.prom", render_doctor_prom(run, timestamps ? std::optional<double>(static_cast<double>(std::time(nullptr)))
                                                               : std::nullopt)}};
}

std::string render_check_catalog() {
  std::string out = "# ncdx doctor checks\n\nGenerated by `ncdx doctor --list-checks` from the registry in `src/analyze/doctor_registry.cc`.\n\n"
                    "| id | category | title | cost | applies | fact |\n|---|---|---|---|---|---|\n";
  for (const auto& c : analyze::doctor_checks())
    out += std::string("| `") + c.id + "` | " + c.category + " | " + c.title + " | " + c.cost + " | " + c.applies + " | " + c.fact + " |\n";
  return out;
}

}  // namespace ncdx::report
