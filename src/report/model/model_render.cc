#include "report/model/model_render.h"

#include <cstdio>
#include <sstream>

#include "core/table.h"
#include "report/summary_json.h"
#include "model/cost/collnet.h"
#include "model/cost/spec_parse.h"

namespace ncdx::report {
namespace mc = model::cost;
namespace aj = analyze::judge;
namespace {

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// Three significant digits, never scientific for the ranges we print.
std::string num(double v) {
  if (v >= 1000) return fmt("%.0f", v);
  if (v >= 100) return fmt("%.1f", v);
  if (v >= 10) return fmt("%.2f", v);
  return fmt("%.3f", v);
}

nlohmann::json graph_json(const mc::Graph& g, int algo, int gpus_per_node) {
  return {{"algo", std::string(mc::name(static_cast<mc::Algo>(algo)))},
          {"pattern", g.pattern},
          {"nchannels", g.nchannels},
          {"heads", mc::distinct_heads(g, gpus_per_node)},
          {"bw_intra_gbps", g.bw_intra},
          {"bw_inter_gbps", g.bw_inter},
          {"type_intra", mc::name(g.type_intra)},
          {"type_inter", mc::name(g.type_inter)},
          {"source", g.from_log ? "nccl-log" : "estimated"}};
}

// AllToAll/SendRecv are NCCL p2p operations: no algorithm/protocol pick to show.
bool is_p2p(const mc::Prediction& p) { return p.coll == mc::Collective::AllToAll || p.coll == mc::Collective::SendRecv; }

nlohmann::json prediction_json(const mc::Prediction& p) {
  nlohmann::json j = {{"collective", std::string(mc::name(p.coll))}, {"bytes", p.bytes}};
  if (p.available) {
    j["algo"] = is_p2p(p) ? nlohmann::json(nullptr) : nlohmann::json(std::string(mc::name(p.algo)));
    j["proto"] = is_p2p(p) ? nlohmann::json(nullptr) : nlohmann::json(std::string(mc::name(p.proto)));
    j["time_us"] = p.time_us;
    j["nccl_time_us"] = is_p2p(p) ? nlohmann::json(nullptr) : nlohmann::json(p.nccl_time_us);
    j["algbw_gbps"] = p.algbw_gbps;
    j["busbw_gbps"] = p.busbw_gbps;
    j["nchannels"] = p.nchannels;
    j["nthreads"] = p.nthreads;
  } else {
    for (const char* k : {"algo", "proto", "time_us", "nccl_time_us", "algbw_gbps", "busbw_gbps", "nchannels", "nthreads"})
      j[k] = nullptr;
  }
  j["note"] = p.note.empty() ? nlohmann::json(nullptr) : nlohmann::json(p.note);
  return j;
}

// The pick's time as ncdx models it (model/cost/pipeline.h), under the cost table.
std::string pipeline_text(const mc::Prediction& p) {
  std::ostringstream o;
  if (p.window <= 0) {
    o << "ncdx time: NCCL's estimate " << num(p.time_us) << " us (" << mc::name(p.algo) << " not pipeline-modelled)\n";
    return o.str();
  }
  o << "ncdx time: max(NCCL lat " << num(p.nccl_time_us - p.bw_us) << " + bw term " << num(p.bw_us) << ", " << p.slices
    << " slices x 2 x " << num(p.hop_us) << " us hop / window " << p.window << " = " << num(p.window_us)
    << ") = " << num(p.time_us) << " us (NCCL's estimate " << num(p.nccl_time_us) << "; " << p.chunk_bytes
    << " B per channel per step, " << p.loops << " loop" << (p.loops == 1 ? "" : "s") << ")\n";
  return o.str();
}

nlohmann::json pipeline_json(const mc::Prediction& p) {
  if (p.window <= 0) return nullptr;
  return {{"chunk_bytes", p.chunk_bytes}, {"loops", p.loops}, {"slices", p.slices}, {"window", p.window},
          {"hop_us", p.hop_us}, {"window_us", p.window_us}, {"bw_us", p.bw_us}};
}

}  // namespace

std::string size_text(std::uint64_t b) {
  char buf[32];
  if (b >= (1ull << 30) && b % (1ull << 30) == 0) std::snprintf(buf, sizeof buf, "%llu GB", static_cast<unsigned long long>(b >> 30));
  else if (b >= (1ull << 20) && b % (1ull << 20) == 0) std::snprintf(buf, sizeof buf, "%llu MB", static_cast<unsigned long long>(b >> 20));
  else if (b >= (1ull << 10) && b % (1ull << 10) == 0) std::snprintf(buf, sizeof buf, "%llu KB", static_cast<unsigned long long>(b >> 10));
  else std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(b));
  return buf;
}

std::string render_model_text(const mc::SweepResult& r, bool explain, bool color) {
  std::ostringstream o;
  o << "cluster: " << mc::describe(r.spec) << " (" << r.spec.nranks() << " ranks)\n";
  o << "NCCL " << r.version.str() << " model (family " << mc::name(r.version.family()) << "), " << r.comm_channels
    << " channels\n";
  const auto& ring = r.graphs[static_cast<int>(mc::Algo::Ring)];
  o << "ring graph: " << ring.nchannels << " x " << num(ring.bw_intra) << "/" << num(ring.bw_inter) << " GB/s, type "
    << mc::name(ring.type_intra) << "/" << mc::name(ring.type_inter) << (ring.from_log ? " (from NCCL log)" : " (estimated search)") << "\n";
  for (const auto& n : r.notes) o << "note: " << n << "\n";
  o << "\n";
  core::Table t({"COLLECTIVE", "SIZE", "ALGO", "PROTO", "CH", "TIME(us)", "ALGBW(GB/s)", "BUSBW(GB/s)"});
  for (const auto& row : r.rows) {
    const auto& p = row.prediction;
    if (!p.available) {
      t.add({std::string(mc::name(p.coll)), size_text(p.bytes), "-", "-", "-", "-", "-", p.note.empty() ? "-" : p.note});
      continue;
    }
    t.add({std::string(mc::name(p.coll)), size_text(p.bytes), is_p2p(p) ? "p2p" : std::string(mc::name(p.algo)),
           is_p2p(p) ? "-" : std::string(mc::name(p.proto)),
           std::to_string(p.nchannels), num(p.time_us), num(p.algbw_gbps), num(p.busbw_gbps)});
  }
  o << t.render(color);
  if (explain) {
    for (const auto& row : r.rows) {
      const auto& p = row.prediction;
      o << "\n" << mc::name(p.coll) << " " << size_text(p.bytes) << ": NCCL's cost table (time = lat + bytes / (1000 x bw))\n";
      core::Table c({"ALGO", "PROTO", "LAT(us)", "BW(GB/s)", "TIME(us)", ""});
      for (const auto& cell : row.cost) {
        if (cell.bw_gbps <= 0 && cell.lat_us <= 0) continue;
        bool pick = p.available && cell.algo == p.algo && cell.proto == p.proto;
        c.add({std::string(mc::name(cell.algo)), std::string(mc::name(cell.proto)), num(cell.lat_us),
               cell.bw_gbps > 0 ? num(cell.bw_gbps) : "0 (disabled)", cell.time_us >= 0 ? num(cell.time_us) : "-",
               pick ? core::Cell("<- chosen", core::Color::green) : core::Cell("")});
      }
      o << c.render(color);
      if (p.available && !is_p2p(p)) o << pipeline_text(p);
    }
  }
  return o.str();
}

std::string render_what_if_text(const std::vector<mc::WhatIf>& ws) {
  std::ostringstream o;
  for (const auto& w : ws) {
    o << "\nwhat-if " << w.scenario << ":\n";
    core::Table t({"CASE", "NCCL", "OP", "SIZE", "OPS", "ALGO/PROTO", "TIME(us)", "BUSBW(GB/s)"});
    for (const auto& c : w.cases) {
      const auto& p = c.prediction;
      t.add({c.label, c.nccl_version, std::string(mc::name(c.coll)), size_text(c.bytes), std::to_string(c.ops),
             p.available ? std::string(mc::name(p.algo)) + "/" + std::string(mc::name(p.proto)) : "-",
             p.available ? num(c.time_us) : "-", p.available ? num(p.busbw_gbps) : "-"});
    }
    o << t.render(false);
    for (const auto& c : w.cases) o << "  " << c.label << ": " << c.spec << "\n";
    o << "  => " << w.summary << "\n";
  }
  return o.str();
}

std::string render_judge_text(const std::vector<aj::Judgement>& js, const std::string& file, bool color) {
  std::ostringstream o;
  for (const auto& j : js) {
    o << file << ":" << j.first_line << ": " << (j.test_name.empty() ? "nccl-tests" : j.test_name);
    if (j.spec) o << " on " << mc::describe(*j.spec) << " (" << j.spec_source << "), NCCL " << j.nccl_version << " model";
    o << "\n";
    auto vc = j.kind == aj::VerdictKind::Ok ? core::Color::green : j.kind == aj::VerdictKind::Unknown ? core::Color::grey : core::Color::red;
    o << "verdict: " << core::paint(j.verdict, vc, color) << "\n";
    for (const auto& n : j.notes) o << "note: " << n << "\n";
    if (j.avg_busbw) o << "avg bus bandwidth (nccl-tests): " << num(*j.avg_busbw) << " GB/s\n";
    core::Table t({"SIZE", "BUSBW(GB/s)", "EXPECTED", "%", "MODEL PICK", ""});
    for (const auto& r : j.rows) {
      t.add({size_text(r.size), r.measured_busbw ? num(*r.measured_busbw) : "-", r.expected_busbw ? num(*r.expected_busbw) : "-",
             r.ratio ? fmt("%.0f", *r.ratio * 100) : "-", r.algo.empty() ? "-" : r.algo + "/" + r.proto,
             r.wrong ? core::Cell("#wrong", core::Color::red) : (r.counted ? core::Cell("*") : core::Cell(""))});
    }
    o << t.render(color);
    o << "(* = bandwidth-bound size used for the verdict)\n";
    if (!j.causes.empty()) {
      o << "likely causes:\n";
      int i = 0;
      for (const auto& c : j.causes) o << "  " << ++i << ". " << c << "\n";
    }
    o << "\n";
  }
  return o.str();
}

nlohmann::json model_json(const mc::SweepResult* sweep, bool explain, const std::vector<mc::WhatIf>& what_ifs,
                          const std::vector<aj::Judgement>& judgements, const std::string& judge_file) {
  nlohmann::json j = nlohmann::json::object();
  if (sweep) {
    j["spec"] = mc::describe(sweep->spec);
    j["nranks"] = sweep->spec.nranks();
    j["nccl_version"] = sweep->version.str();
    j["family"] = std::string(mc::name(sweep->version.family()));
    j["comm_channels"] = sweep->comm_channels;
    j["graphs"] = nlohmann::json::array();
    for (int a : {0, 1, 2, 3, 4})
      if (sweep->graphs[a].nchannels > 0) j["graphs"].push_back(graph_json(sweep->graphs[a], a, sweep->spec.gpus_per_node));
    j["predictions"] = nlohmann::json::array();
    for (const auto& row : sweep->rows) {
      auto p = prediction_json(row.prediction);
      if (explain) {
        p["cost"] = nlohmann::json::array();
        for (const auto& c : row.cost) {
          if (c.bw_gbps <= 0 && c.lat_us <= 0) continue;
          p["cost"].push_back({{"algo", std::string(mc::name(c.algo))}, {"proto", std::string(mc::name(c.proto))},
                               {"lat_us", c.lat_us}, {"bw_gbps", c.bw_gbps},
                               {"time_us", c.time_us >= 0 ? nlohmann::json(c.time_us) : nlohmann::json(nullptr)}});
        }
        if (row.prediction.available && !is_p2p(row.prediction)) p["pipeline"] = pipeline_json(row.prediction);
      }
      j["predictions"].push_back(std::move(p));
    }
    j["notes"] = sweep->notes;
  } else {
    j["predictions"] = nlohmann::json::array();
  }
  if (!what_ifs.empty()) {
    j["what_if"] = nlohmann::json::array();
    for (const auto& w : what_ifs) {
      nlohmann::json cases = nlohmann::json::array();
      for (const auto& c : w.cases) {
        auto p = prediction_json(c.prediction);
        p["label"] = c.label;
        p["spec"] = c.spec;
        p["nccl_version"] = c.nccl_version;
        p["ops"] = c.ops;
        p["total_time_us"] = c.prediction.available ? nlohmann::json(c.time_us) : nlohmann::json(nullptr);
        cases.push_back(std::move(p));
      }
      j["what_if"].push_back({{"scenario", w.scenario}, {"summary", w.summary}, {"cases", cases}});
    }
  }
  // Judgements are the only thing `model` judges: without --judge every count is 0.
  j["summary"] = summary_json(core::tally_of(judgements, [](const aj::Judgement& x) { return aj::outcome_of(x.kind); }));
  if (!judge_file.empty()) {
    j["judgements"] = nlohmann::json::array();
    for (const auto& x : judgements) {
      nlohmann::json rows = nlohmann::json::array();
      for (const auto& r : x.rows)
        rows.push_back({{"bytes", r.size},
                        {"busbw_gbps", r.measured_busbw ? nlohmann::json(*r.measured_busbw) : nlohmann::json(nullptr)},
                        {"expected_busbw_gbps", r.expected_busbw ? nlohmann::json(*r.expected_busbw) : nlohmann::json(nullptr)},
                        {"ratio", r.ratio ? nlohmann::json(*r.ratio) : nlohmann::json(nullptr)},
                        {"algo", r.algo.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.algo)},
                        {"proto", r.proto.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.proto)},
                        {"counted", r.counted},
                        {"wrong", r.wrong}});
      j["judgements"].push_back({{"file", judge_file},
                                 {"line", x.first_line},
                                 {"test", x.test_name.empty() ? nlohmann::json(nullptr) : nlohmann::json(x.test_name)},
                                 {"collective", x.coll ? nlohmann::json(std::string(mc::name(*x.coll))) : nlohmann::json(nullptr)},
                                 {"spec", x.spec ? nlohmann::json(mc::describe(*x.spec)) : nlohmann::json(nullptr)},
                                 {"spec_source", x.spec_source.empty() ? nlohmann::json(nullptr) : nlohmann::json(x.spec_source)},
                                 {"nccl_version", x.nccl_version},
                                 {"verdict", std::string(aj::name(x.kind))},
                                 {"status", core::to_string(aj::outcome_of(x.kind))},
                                 {"verdict_text", x.verdict},
                                 {"pct_of_expected", x.pct_of_expected ? nlohmann::json(*x.pct_of_expected) : nlohmann::json(nullptr)},
                                 {"from_bytes", x.from_size ? nlohmann::json(x.from_size) : nlohmann::json(nullptr)},
                                 {"avg_busbw_gbps", x.avg_busbw ? nlohmann::json(*x.avg_busbw) : nlohmann::json(nullptr)},
                                 {"causes", x.causes},
                                 {"notes", x.notes},
                                 {"rows", rows}});
    }
  }
  return j;
}

}  // namespace ncdx::report
