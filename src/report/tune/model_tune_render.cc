#include "report/tune/model_tune_render.h"

#include <cstdio>
#include <memory>
#include <sstream>

#include "core/strings.h"
#include "core/table.h"

namespace ncdx::report {
namespace {

namespace mc = model::cost;

std::string num(double v, const char* f = "%.1f") {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

std::string entry(const mc::Prediction& p) { return std::string(mc::name(p.algo)) + "/" + std::string(mc::name(p.proto)); }

std::string bucket(const model::tune::ModelTuneBucket& b) { return std::to_string(b.min_bytes) + "-" + std::to_string(b.max_bytes); }

std::string calibration_line(const ModelTuneView& v) {
  if (v.calibration.empty()) return "NCCL's own constants (not calibrated)";
  return "calibrated on " + v.calibration + ": bandwidth x" + num(v.bw_scale, "%.3f") + ", latency x" + num(v.lat_scale, "%.3f");
}

nlohmann::json entry_json(const mc::Prediction& p) {
  return {{"algo", std::string(mc::name(p.algo))}, {"proto", std::string(mc::name(p.proto))}, {"nchannels", p.nchannels},
          {"nccl_time_us", p.nccl_time_us}, {"time_us", p.time_us}};
}

}  // namespace

std::string model_tune_file_header(const ModelTuneView& v) {
  const auto& r = *v.result;
  std::ostringstream o;
  o << "ncdx tune --model: PREDICTED by ncdx's cost model, not measured. NCCL " << v.nccl << ", spec " << v.spec << " ("
    << v.nnodes << " nodes, " << v.nranks << " ranks), " << calibration_line(v) << ".\n"
    << "A rule forces NCCL's cost-table entry where ncdx's predicted time for it is at least " << num(100 * v.min_gain, "%.0f")
    << " % below its prediction for NCCL's own pick; it matches only communicators of " << v.nnodes << " nodes and " << v.nranks
    << " ranks.\n"
    << "Load: NCCL_TUNER_PLUGIN=ncdx (libnccl-tuner-ncdx.so) NCDX_TUNER_FILE=<this file>. NCCL's example tuner reads the same "
       "lines but runs channels -1, and every op outside these rules, on one channel (plugins/tuner/example/plugin.c:361 @ v2.30.7-1).";
  if (r.rules.empty()) o << "\n" << model::tune::kModelAgrees << ".";
  return o.str();
}

std::string render_model_tune_text(const ModelTuneView& v) {
  const auto& r = *v.result;
  std::ostringstream o;
  o << "ncdx tune --model: PREDICTED by the cost model (no measurement): NCCL " << v.nccl << ", " << v.nnodes << " nodes, "
    << v.nranks << " ranks, " << calibration_line(v) << "\n"
    << "a bucket gets a rule where ncdx's predicted time beats its prediction for NCCL's own pick by >= "
    << num(100 * v.min_gain, "%.0f") << " % (and is no slower at the bucket's edges)\n\n";
  mc::Collective cur = mc::Collective::SendRecv;
  std::unique_ptr<core::Table> t;
  auto flush = [&] {
    if (t) o << t->render(false, 140) << "\n";
  };
  for (const auto& b : r.buckets) {
    if (!t || b.coll != cur) {
      flush();
      cur = b.coll;
      o << mc::name(cur) << "\n";
      t = std::make_unique<core::Table>(std::vector<std::string>{"SIZE", "BUCKET (bytes)", "NCCL PICK", "NCCL EST us", "NCDX us (PICK)",
                                                                 "NCDX BEST", "NCDX us (BEST)", "GAIN", "RULE", "BASIS"});
    }
    const bool avail = b.nccl.available;
    t->add({core::human_bytes(static_cast<double>(b.bytes)), bucket(b), avail ? entry(b.nccl) : "-",
            avail ? num(b.nccl.nccl_time_us) : "-", avail ? num(b.nccl.time_us) : "-", avail ? entry(b.best) : "-",
            avail ? num(b.best.time_us) : "-", avail ? num(100 * b.gain, "%.1f %%") : "-", b.rule ? "yes" : "-", "predicted"});
  }
  flush();
  if (r.rules.empty()) {
    o << model::tune::kModelAgrees << "\n";
  } else {
    o << r.rules.size() << " rule" << (r.rules.size() == 1 ? "" : "s") << " (predicted):\n";
    for (const auto& b : r.buckets)
      if (b.rule) o << "  " << mc::name(b.coll) << " " << bucket(b) << ": " << b.why << "\n";
  }
  bool head = false;
  for (const auto& b : r.buckets)
    if (!b.rule && b.nccl.available && (b.best.algo != b.nccl.algo || b.best.proto != b.nccl.proto)) {
      if (!head) o << "ncdx's best differs, no rule:\n";
      head = true;
      o << "  " << mc::name(b.coll) << " " << bucket(b) << ": " << b.why << "\n";
    }
  o << "tuner file: " << v.tuner_path << " (" << r.rules.size() << (r.rules.size() == 1 ? " rule" : " rules") << "; load with NCCL_TUNER_PLUGIN=ncdx NCDX_TUNER_FILE="
    << v.tuner_path << ")\n";
  o << "env file: " << (v.env_path.empty() ? "none" : v.env_path) << ": " << r.env_why << "\n";
  if (!v.env_removed.empty()) o << "removed " << v.env_removed << ": an earlier `ncdx tune --model` wrote it, and its advice no longer holds\n";
  return o.str();
}

nlohmann::json model_tune_json(const ModelTuneView& v, const nlohmann::json& context) {
  const auto& r = *v.result;
  nlohmann::json colls = nlohmann::json::array();
  nlohmann::json* cur = nullptr;
  for (const auto& b : r.buckets) {
    const std::string name(mc::name(b.coll));
    if (!cur || (*cur)["collective"] != name) {
      colls.push_back({{"collective", name}, {"buckets", nlohmann::json::array()}});
      cur = &colls.back();
    }
    const bool avail = b.nccl.available;
    (*cur)["buckets"].push_back({{"bytes", b.bytes}, {"min_bytes", b.min_bytes}, {"max_bytes", b.max_bytes}, {"predicted", true},
                                 {"nccl", avail ? entry_json(b.nccl) : nlohmann::json(nullptr)},
                                 {"best", avail ? entry_json(b.best) : nlohmann::json(nullptr)},
                                 {"gain", b.gain}, {"edge_gain", b.edge_gain}, {"rule", b.rule}, {"why", b.why}});
  }
  nlohmann::json rules = nlohmann::json::array();
  for (const auto& x : r.rules)
    rules.push_back({{"collective", std::string(measure::name_of(x.coll))}, {"min_bytes", x.min_bytes}, {"max_bytes", x.max_bytes},
                     {"algo", x.algo}, {"proto", x.proto}, {"channels", x.channels}, {"nnodes", x.nnodes}, {"nranks", x.nranks}});
  nlohmann::json env = nlohmann::json::array();
  for (const auto& e : r.env) env.push_back({{"name", e.name}, {"value", e.value}});
  nlohmann::json cal = v.calibration.empty() ? nlohmann::json(nullptr)
                                             : nlohmann::json{{"file", v.calibration}, {"bw_scale", v.bw_scale}, {"lat_scale", v.lat_scale}};
  return {{"schema", "ncdx.tune/1"},
          {"context", context},
          {"backend", "model"},
          {"predicted", true},
          {"nccl", v.nccl},
          {"nccl_algo", v.nccl_algo.empty() ? nlohmann::json(nullptr) : nlohmann::json(v.nccl_algo)},
          {"nccl_proto", v.nccl_proto.empty() ? nlohmann::json(nullptr) : nlohmann::json(v.nccl_proto)},
          {"spec", v.spec},
          {"nnodes", v.nnodes},
          {"nranks", v.nranks},
          {"calibration", cal},
          {"min_gain", v.min_gain},
          {"agrees", r.rules.empty()},
          {"message", r.rules.empty() ? nlohmann::json(model::tune::kModelAgrees) : nlohmann::json(nullptr)},
          {"tuner_path", v.tuner_path},
          {"tuner_rules", v.tuner_text},
          {"rules", rules},
          {"env_path", v.env_path.empty() ? nlohmann::json(nullptr) : nlohmann::json(v.env_path)},
          {"env", env},
          {"env_removed", v.env_removed.empty() ? nlohmann::json(nullptr) : nlohmann::json(v.env_removed)},
          {"env_why", r.env_why},
          {"collectives", colls}};
}

}  // namespace ncdx::report
