#include "analyze/judge/nccl_tests_parse.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "core/json.h"
#include "core/strings.h"

namespace ncdx::analyze::judge {
namespace {

constexpr std::size_t kMaxRows = 100000;      // bound memory on hostile input
constexpr std::size_t kMaxLine = 64 * 1024;

std::vector<std::string_view> words(std::string_view s) { return core::split_ws(s); }

bool is_task_id(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Peels what collectors put before nccl-tests' own text: mpirun --tag-output "[1,0]<stdout>:",
// SageMaker "[1,mpirank:0,algo-1]<stdout>:", srun --label "0: " ("Prepend task number to lines
// of stdout/err", doc/man/man1/srun.1:1753 in SchedMD/slurm), markdown quote/indent, and
// nccl-tests' '#'.
std::string_view strip(std::string_view line, bool& had_hash) {
  had_hash = false;
  if (line.size() > kMaxLine) line = line.substr(0, kMaxLine);
  while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.remove_suffix(1);
  for (int guard = 0; guard < 4; ++guard) {
    auto t = core::trim(line);
    if (t.starts_with("[")) {
      auto close = t.find("]<std");
      if (close != std::string_view::npos) {
        auto colon = t.find(">:", close);
        if (colon != std::string_view::npos) { line = t.substr(colon + 2); continue; }
      }
    }
    if (t.starts_with("> ")) { line = t.substr(2); continue; }
    if (auto colon = t.find(": "); colon != std::string_view::npos && colon <= 6 && is_task_id(t.substr(0, colon))) {
      line = t.substr(colon + 2);
      continue;
    }
    line = t;
    break;
  }
  if (line.starts_with("#")) {
    had_hash = true;
    line = core::trim(line.substr(1));
  }
  return line;
}

bool is_uint(std::string_view s) {
  return !s.empty() && s.size() <= 20 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::optional<double> num(std::string_view s) {
  if (s == "N/A" || s == "n/a" || s == "-") return std::nullopt;
  return core::parse_double(s);
}

bool numeric_or_na(std::string_view s) { return s == "N/A" || core::parse_double(s).has_value(); }

std::optional<std::string> version_from_code(long long code) {
  if (code < 20000 || code > 999999) return std::nullopt;
  int major = static_cast<int>(code / 10000), minor = static_cast<int>((code / 100) % 100), patch = static_cast<int>(code % 100);
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

struct TextParser {
  std::string_view name;
  std::vector<NcclTestsRun> runs;
  NcclTestsRun cur;
  bool in_table = false;
  bool header_has_root = true;
  int side_cols = 4;         // columns per side after the fixed ones (4; 8 with per-iteration)
  bool started = false;

  void flush() {
    if (!cur.rows.empty() || cur.avg_busbw) runs.push_back(std::move(cur));
    cur = NcclTestsRun{};
    in_table = false;
    started = false;
  }

  void header_line(std::string_view l, int lineno) {
    auto w = words(l);
    if (w.size() < 2) return;
    if (w[0] == "size" && w[1] == "count") {
      // A new header after a finished table starts a new run.
      if (!cur.rows.empty() && (cur.avg_busbw || !in_table)) flush();
      if (!started) { cur.first_line = lineno; started = true; }
      in_table = true;
      header_has_root = std::find(w.begin(), w.end(), "root") != w.end();
      cur.wrong_is_error_metric = std::find(w.begin(), w.end(), "error") != w.end();
      std::size_t fixed = header_has_root ? 5 : 4;
      std::size_t rest = w.size() > fixed ? w.size() - fixed : 0;
      if (std::find(w.begin(), w.end(), "redop") == w.end()) rest = w.size() > fixed - 1 ? w.size() - (fixed - 1) : 0;
      side_cols = rest >= 16 ? static_cast<int>(rest / 2) : 4;
    }
  }

  bool row_line(std::string_view l, int lineno) {
    auto w = words(l);
    if (w.size() < 7 || !is_uint(w[0]) || !is_uint(w[1])) return false;
    std::size_t i = 2;
    NcclTestsRow r;
    r.line = lineno;
    r.size = std::strtoull(std::string(w[0]).c_str(), nullptr, 10);
    r.count = std::strtoull(std::string(w[1]).c_str(), nullptr, 10);
    if (i < w.size() && !numeric_or_na(w[i])) r.type = std::string(w[i++]);
    if (i < w.size() && !numeric_or_na(w[i])) r.redop = std::string(w[i++]);
    if (header_has_root && i < w.size() && core::parse_int(w[i])) {
      // The root column exists only with a new-format header; a row with exactly 4+4 values
      // after it confirms it.
      std::size_t left = w.size() - i - 1;
      if (left == static_cast<std::size_t>(2 * side_cols) || left == static_cast<std::size_t>(side_cols) ||
          left == 8 || left == 4)
        r.root = static_cast<int>(*core::parse_int(w[i++]));
    }
    std::vector<std::string_view> vals(w.begin() + static_cast<long>(i), w.end());
    if (vals.size() < 4) return false;
    for (auto v : vals)
      if (!numeric_or_na(v)) return false;
    std::size_t per = vals.size() >= static_cast<std::size_t>(2 * side_cols) ? side_cols : (vals.size() >= 8 ? vals.size() / 2 : 4);
    auto side = [&](std::size_t off, NcclTestsSide& s) {
      if (off + 4 > vals.size()) return;
      s.time_us = num(vals[off]);
      s.algbw_gbps = num(vals[off + 1]);
      s.busbw_gbps = num(vals[off + 2]);
      s.wrong = num(vals[off + 3]);
    };
    side(0, r.oop);
    if (vals.size() >= per + 4) side(per, r.ip);
    if (!started) { cur.first_line = lineno; started = true; }
    if (cur.rows.size() < kMaxRows) cur.rows.push_back(std::move(r));
    return true;
  }

  void meta_line(std::string_view l, int lineno) {
    // A command line ("./build/all_reduce_perf -b 8 -e 8G -f 2 -g 8", "mpirun ... sendrecv_perf")
    // names the test when the "Collective test starting" line was cut off.
    if (!cur.coll) {
      if (auto q = l.find("_perf"); q != std::string_view::npos && l.find("Collective test starting:") == std::string_view::npos) {
        std::size_t b = q;
        while (b > 0 && (std::isalnum(static_cast<unsigned char>(l[b - 1])) || l[b - 1] == '_')) --b;
        auto nm = l.substr(b, q + 5 - b);
        if (auto c = model::cost::parse_collective(nm)) {
          cur.coll = c;
          cur.test_name = std::string(nm);
        }
      }
    }
    if (auto p = l.find("Collective test starting:"); p != std::string_view::npos) {
      if (!cur.rows.empty()) flush();
      auto nm = core::trim(l.substr(p + 25));
      cur.test_name = std::string(nm);
      cur.coll = model::cost::parse_collective(nm);
      if (!started) cur.first_line = lineno;
      started = true;
    } else if (auto p2 = l.find("nccl-tests version"); p2 != std::string_view::npos) {
      if (!cur.rows.empty()) flush();
      if (!started) cur.first_line = lineno;
      started = true;
      auto w = words(l.substr(p2 + 18));
      if (!w.empty()) cur.tests_version = std::string(w[0]);
      for (auto x : w)
        if (x.starts_with("nccl-library=")) {
          if (auto c = core::parse_int(x.substr(13))) cur.nccl_version = version_from_code(*c);
        }
    } else if (l.starts_with("nThread")) {
      auto w = words(l);
      for (std::size_t k = 0; k + 1 < w.size(); ++k) {
        if (w[k] == "nThread") if (auto v = core::parse_int(w[k + 1])) cur.nthreads = static_cast<int>(*v);
        if (w[k] == "nGpus") if (auto v = core::parse_int(w[k + 1])) cur.ngpus = static_cast<int>(*v);
      }
    } else if (l.starts_with("Rank ")) {
      // "Rank  0 Group  0 Pid 574577 on MOC-R4PCC04U37 device  0 [0000:06:00] NVIDIA H100 80GB HBM3"
      auto w = words(l);
      auto on = std::find(w.begin(), w.end(), "on");
      if (on != w.end() && on + 1 != w.end()) {
        ++cur.ranks_listed;
        std::string host(*(on + 1));
        if (std::find(cur.hosts.begin(), cur.hosts.end(), host) == cur.hosts.end() && cur.hosts.size() < 4096) cur.hosts.push_back(host);
        if (cur.device_name.empty()) {
          auto br = l.find(']');
          if (br != std::string_view::npos) cur.device_name = std::string(core::trim(l.substr(br + 1)));
        }
      }
    } else if (l.starts_with("Out of bounds values")) {
      auto c = l.find(':');
      if (c != std::string_view::npos) {
        auto w = words(l.substr(c + 1));
        if (!w.empty()) if (auto v = core::parse_int(w[0])) cur.out_of_bounds = *v;
      }
    } else if (l.starts_with("Avg bus bandwidth")) {
      auto c = l.find(':');
      if (c != std::string_view::npos) {
        auto w = words(l.substr(c + 1));
        if (!w.empty()) cur.avg_busbw = core::parse_double(w[0]);
      }
      in_table = false;
    } else if (l.find("NCCL INFO") != std::string_view::npos) {
      if (l.find("NET/Socket") != std::string_view::npos || l.find("Using network Socket") != std::string_view::npos) cur.hints.net_socket = true;
      if (l.find("NET/IB") != std::string_view::npos) cur.hints.net_ib = true;
      if (l.find("GDRDMA") != std::string_view::npos) cur.hints.gdr = true;
      if (l.find("via NET/") != std::string_view::npos) cur.hints.via_net = true;
      if (l.find("via SHM") != std::string_view::npos) cur.hints.shm = true;
      if (auto a = l.find("NCCL_ALGO set by environment to "); a != std::string_view::npos) cur.hints.nccl_algo = std::string(core::trim(l.substr(a + 32)));
      if (auto a = l.find("NCCL_PROTO set by environment to "); a != std::string_view::npos) cur.hints.nccl_proto = std::string(core::trim(l.substr(a + 33)));
      if (auto a = l.find("NCCL_IB_HCA set to "); a != std::string_view::npos) cur.hints.ib_hca = std::string(core::trim(l.substr(a + 19)));
      if (auto p3 = l.find("NCCL version "); p3 != std::string_view::npos && !cur.nccl_version) {
        auto w = words(l.substr(p3 + 13));
        if (!w.empty()) {
          std::string v(w[0]);
          if (auto plus = v.find('+'); plus != std::string::npos) v.resize(plus);
          if (!v.empty() && std::isdigit(static_cast<unsigned char>(v[0]))) cur.nccl_version = v;
        }
      }
    } else if (auto p3 = l.find("NCCL version "); p3 != std::string_view::npos && !cur.nccl_version) {
      auto w = words(l.substr(p3 + 13));
      if (!w.empty()) {
        std::string v(w[0]);
        if (auto plus = v.find('+'); plus != std::string::npos) v.resize(plus);
        if (!v.empty() && std::isdigit(static_cast<unsigned char>(v[0]))) cur.nccl_version = v;
      }
    }
  }
};

// The device list of either JSON form: one entry per rank, with its host and device name under
// the keys that form uses.
void read_devices(const nlohmann::json& list, const char* host_key, const char* name_key, NcclTestsRun& run) {
  for (const auto& d : list) {
    if (!d.is_object()) continue;
    ++run.ranks_listed;
    if (d.contains(host_key) && d[host_key].is_string()) {
      auto h = d[host_key].get<std::string>();
      if (std::find(run.hosts.begin(), run.hosts.end(), h) == run.hosts.end()) run.hosts.push_back(h);
    }
    if (run.device_name.empty() && d.contains(name_key) && d[name_key].is_string()) run.device_name = d[name_key].get<std::string>();
  }
}

// The out-of-place or in-place columns of either JSON form, under that form's keys.
struct SideKeys {
  const char *time, *alt_time, *algbw, *busbw, *wrong;
};
void read_side(const nlohmann::json& o, const SideKeys& k, NcclTestsSide& s) {
  if (!o.is_object()) return;
  auto getd = [&](const char* key) -> std::optional<double> {
    if (key && o.contains(key) && o[key].is_number()) return o[key].get<double>();
    return std::nullopt;
  };
  s.time_us = getd(k.time) ? getd(k.time) : getd(k.alt_time);
  s.algbw_gbps = getd(k.algbw);
  s.busbw_gbps = getd(k.busbw);
  s.wrong = getd(k.wrong);
}

// ncdx's own `ncdx bench --json` document (ncdx.bench/1, docs/schema/bench.schema.json, written by
// report/bench/bench_render.cc bench_json): the same measurements under ncdx's key names.
core::Result<std::vector<NcclTestsRun>> parse_bench_json(const nlohmann::json& j, std::string_view name) {
  NcclTestsRun run;
  run.format = "ncdx.bench";
  if (j.contains("collective") && j["collective"].is_string()) {
    run.coll = model::cost::parse_collective(j["collective"].get<std::string>());
    if (run.coll) run.test_name = std::string(model::cost::name(*run.coll));
  }
  if (j.contains("ranks") && j["ranks"].is_array()) read_devices(j["ranks"], "host", "device_name", run);
  // "library": "NCCL 2.30.7" for the nccl backend (measure/collective/nccl_engine.cc), the MPI
  // library's name otherwise.
  if (j.contains("library") && j["library"].is_string()) {
    const auto lib = j["library"].get<std::string>();
    if (lib.rfind("NCCL ", 0) == 0) {
      auto end = lib.find_first_not_of("0123456789.", 5);
      auto v = lib.substr(5, end == std::string::npos ? std::string::npos : end - 5);
      if (model::cost::NcclVersion::parse(v)) run.nccl_version = v;
    }
  }
  const SideKeys keys{"time_us", nullptr, "algbw_gbps", "busbw_gbps", "wrong"};
  if (j.contains("results") && j["results"].is_array()) {
    for (const auto& r : j["results"]) {
      if (!r.is_object() || !r.contains("bytes") || !r["bytes"].is_number_unsigned()) continue;
      if (run.rows.size() >= kMaxRows) break;
      NcclTestsRow row;
      row.size = r["bytes"].get<std::uint64_t>();
      if (r.contains("count") && r["count"].is_number_unsigned()) row.count = r["count"].get<std::uint64_t>();
      if (r.contains("out_of_place")) read_side(r["out_of_place"], keys, row.oop);
      if (r.contains("in_place")) read_side(r["in_place"], keys, row.ip);
      run.rows.push_back(std::move(row));
    }
  }
  if (j.contains("avg_busbw_gbps") && j["avg_busbw_gbps"].is_number()) run.avg_busbw = j["avg_busbw_gbps"].get<double>();
  if (j.contains("out_of_bounds") && j["out_of_bounds"].is_number_integer()) run.out_of_bounds = j["out_of_bounds"].get<long long>();
  if (run.rows.empty()) return core::Status::bad_input(std::string(name) + ": ncdx.bench/1 JSON with no result rows");
  return std::vector<NcclTestsRun>{std::move(run)};
}

core::Result<std::vector<NcclTestsRun>> parse_json_runs(std::string_view text, std::string_view name) {
  auto doc = core::parse_json(text, name);
  if (!doc.ok()) return doc.status();
  const auto& j = *doc;
  if (j.is_object() && j.contains("schema") && j["schema"] == "ncdx.bench/1") return parse_bench_json(j, name);
  if (!j.is_object() || !j.contains("results") || !j["results"].is_array())
    return core::Status::bad_input(std::string(name) + ": JSON without a \"results\" list (expected nccl-tests -J output)");
  NcclTestsRun run;
  run.format = "json";
  if (j.contains("nccl_version") && j["nccl_version"].is_number_integer()) run.nccl_version = version_from_code(j["nccl_version"].get<long long>());
  if (j.contains("args") && j["args"].is_array() && !j["args"].empty() && j["args"][0].is_string()) {
    std::string a0 = j["args"][0].get<std::string>();
    auto slash = a0.find_last_of('/');
    run.test_name = slash == std::string::npos ? a0 : a0.substr(slash + 1);
    run.coll = model::cost::parse_collective(run.test_name);
    // `ncdx bench -J`: args are "ncdx", "bench", the collective (cli/cmd_bench.cc).
    const auto& a = j["args"];
    if (!run.coll && run.test_name == "ncdx" && a.size() >= 3 && a[1] == "bench" && a[2].is_string()) {
      run.coll = model::cost::parse_collective(a[2].get<std::string>());
      if (run.coll) run.test_name = std::string(model::cost::name(*run.coll));
    }
  }
  if (j.contains("config") && j["config"].is_object()) {
    const auto& c = j["config"];
    if (c.contains("nthreads") && c["nthreads"].is_number_integer()) run.nthreads = c["nthreads"].get<int>();
    if (c.contains("ngpus") && c["ngpus"].is_number_integer()) run.ngpus = c["ngpus"].get<int>();
  }
  // nccl-tests writes the device list inside "config" (src/util.cu writeDeviceReport @ a0b82b2,
  // JSON_FILE_VERSION 3); a top-level list is read too.
  const nlohmann::json* devices = nullptr;
  if (j.contains("config") && j["config"].is_object() && j["config"].contains("devices") && j["config"]["devices"].is_array())
    devices = &j["config"]["devices"];
  else if (j.contains("devices") && j["devices"].is_array())
    devices = &j["devices"];
  if (devices) read_devices(*devices, "hostname", "device_info", run);
  const SideKeys keys{"time", "cpu_time", "alg_bw", "bus_bw", "nwrong"};
  for (const auto& r : j["results"]) {
    if (!r.is_object() || !r.contains("size") || !r["size"].is_number_unsigned()) continue;
    if (run.rows.size() >= kMaxRows) break;
    NcclTestsRow row;
    row.size = r["size"].get<std::uint64_t>();
    if (r.contains("count") && r["count"].is_number_unsigned()) row.count = r["count"].get<std::uint64_t>();
    if (r.contains("type") && r["type"].is_string()) row.type = r["type"].get<std::string>();
    if (r.contains("redop") && r["redop"].is_string()) row.redop = r["redop"].get<std::string>();
    if (r.contains("root") && r["root"].is_string()) if (auto v = core::parse_int(core::trim(r["root"].get<std::string>()))) row.root = static_cast<int>(*v);
    if (r.contains("out_of_place")) read_side(r["out_of_place"], keys, row.oop);
    if (r.contains("in_place")) read_side(r["in_place"], keys, row.ip);
    if (run.test_name.empty() && r.contains("experiment_name") && r["experiment_name"].is_string()) {
      run.test_name = r["experiment_name"].get<std::string>();
      run.coll = model::cost::parse_collective(run.test_name);
    }
    run.rows.push_back(std::move(row));
  }
  if (j.contains("average_bus_bandwidth") && j["average_bus_bandwidth"].is_object() &&
      j["average_bus_bandwidth"].contains("bandwidth") && j["average_bus_bandwidth"]["bandwidth"].is_number())
    run.avg_busbw = j["average_bus_bandwidth"]["bandwidth"].get<double>();
  if (j.contains("out_of_bounds") && j["out_of_bounds"].is_object() && j["out_of_bounds"].contains("count") &&
      j["out_of_bounds"]["count"].is_number_integer())
    run.out_of_bounds = j["out_of_bounds"]["count"].get<long long>();
  if (run.rows.empty()) return core::Status::bad_input(std::string(name) + ": nccl-tests JSON with no result rows");
  return std::vector<NcclTestsRun>{std::move(run)};
}

}  // namespace

bool looks_like_nccl_tests(std::string_view text) {
  return (text.find("size") != std::string_view::npos && text.find("count") != std::string_view::npos &&
          text.find("busbw") != std::string_view::npos) ||
         text.find("Avg bus bandwidth") != std::string_view::npos;
}

core::Result<std::vector<NcclTestsRun>> parse_nccl_tests(std::string_view text, std::string_view name) {
  auto first = text.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && text[first] == '{') return parse_json_runs(text, name);
  TextParser p{name, {}, {}, false, true, 4, false};
  int lineno = 0;
  std::size_t pos = 0;
  int header_line = 0;
  while (pos <= text.size()) {
    auto nl = text.find('\n', pos);
    std::string_view raw = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    ++lineno;
    bool hash = false;
    auto l = strip(raw, hash);
    if (!l.empty()) {
      auto w = words(l);
      if (w.size() >= 2 && w[0] == "size" && w[1] == "count") {
        p.header_line(l, lineno);
        header_line = lineno;
      } else if (!p.row_line(l, lineno)) {
        p.meta_line(l, lineno);
      }
    }
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  p.flush();
  for (auto& r : p.runs) r.format = "text";
  if (p.runs.empty()) {
    if (header_line)
      return core::Status::bad_input(std::string(name) + ":" + std::to_string(header_line) +
                                     ": nccl-tests header without result rows (expected \"size count type redop root time algbw busbw #wrong ...\" rows)");
    return core::Status::bad_input(std::string(name) + ":1: no nccl-tests table found (expected the \"# size count type ...\" header and rows, or nccl-tests -J JSON)");
  }
  return p.runs;
}

}  // namespace ncdx::analyze::judge
