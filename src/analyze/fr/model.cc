// The typed Flight Recorder model: a decoded dump → FrRankDump (the rules are in
// fr/model_build.h, shared by the JSON and pickle forms), and back to JSON for reports.
#include <map>

#include "analyze/fr/model_build.h"
#include "analyze/fr/model_view.h"
#include "core/json.h"
#include "core/strings.h"

namespace ncdx::analyze {

using nlohmann::json;

namespace frmodel {

std::optional<std::vector<int>> parse_ranks_text(std::string_view text) {
  auto p = core::parse_json(text, "ranks");
  if (!p || !p->is_array()) return std::nullopt;
  std::vector<int> out;
  for (const auto& r : *p) {
    if (!r.is_number_integer()) return std::nullopt;
    long long x = r.get<long long>();
    if (x < 0 || x > 0x7fffffff) return std::nullopt;
    out.push_back(static_cast<int>(x));
  }
  return out;
}

void check_version(FrRankDump& d) {
  if (!d.version) {
    d.warnings.push_back(d.file + ": no version key; read as the latest known format (2.10)");
    return;
  }
  auto parts = core::split(*d.version, '.');
  auto major = parts.size() == 2 ? core::parse_int(parts[0]) : std::nullopt;
  auto minor = parts.size() == 2 ? core::parse_int(parts[1]) : std::nullopt;
  if (!major || !minor || *major != 2 || *minor > 10)
    d.warnings.push_back(d.file + ": dump version " + *d.version +
                         " is not one ncdx knows (2.3-2.10); read best-effort");
}

std::size_t NewestPerGroup::see(const std::vector<FrEntry>& es, std::size_t i, bool& newest) {
  const FrEntry& e = es[i];
  auto [it, fresh] = newest_.try_emplace(e.pg_name.value_or(""), i);
  newest = fresh || e.record_id.value_or(-1) >= es[it->second].record_id.value_or(-1);
  if (fresh || !newest) return npos;
  std::size_t displaced = it->second;
  it->second = i;
  return displaced;
}

// The checks quote the stacks of pending entries and of each group's newest entry only.
std::vector<bool> frames_to_keep(const FrRankDump& d) {
  NewestPerGroup n;
  bool newest = false;
  for (std::size_t i = 0; i < d.entries.size(); ++i) n.see(d.entries, i, newest);
  std::vector<bool> keep(d.entries.size(), false);
  for (const auto& [g, i] : n.all()) keep[i] = true;
  return keep;
}

}  // namespace frmodel

std::string FrEntry::op() const {
  if (!profiling_name) return "";
  std::string_view s = *profiling_name;
  auto colon = s.find(':');
  if (colon != std::string_view::npos) s.remove_prefix(colon + 1);
  auto space = s.find(' ');
  return std::string(s.substr(0, space));
}

namespace {

template <class V>
core::Result<FrRankDump> build(const V& root, const std::string& file, std::optional<int> rank, std::string format,
                               bool keep_all_frames, std::size_t budget, std::size_t id_space) {
  FrRankDump d;
  d.file = file;
  d.rank = rank;
  d.format = std::move(format);
  frmodel::Builder<V> b(d, keep_all_frames, budget, id_space);
  if (core::Status st = b.build(root); !st) return st;
  return d;
}

}  // namespace

core::Result<FrRankDump> parse_fr_dump(const json& raw, const std::string& file, std::optional<int> rank,
                                       std::string format, bool keep_all_frames) {
  return build(frview::JsonView(&raw), file, rank, std::move(format), keep_all_frames, SIZE_MAX, 0);
}

core::Result<FrRankDump> parse_fr_doc(const PickleDoc& doc, const std::string& file, std::optional<int> rank,
                                      std::string format, bool keep_all_frames, std::size_t max_output) {
  if (doc.root() == PickleDoc::npos) return core::Status::bad_input(file + ": nothing was decoded");
  return build(frview::PickleView(&doc, doc.root()), file, rank, std::move(format), keep_all_frames, max_output,
               doc.value_count());
}

json to_json(const FrEntry& e) {
  json frames = nullptr;
  if (e.frames) {
    frames = json::array();
    for (const auto& f : *e.frames)
      frames.push_back({{"name", f.name}, {"filename", f.filename}, {"line", core::opt_json(f.line)}});
  }
  using core::opt_json;
  return {{"index", e.index},
          {"record_id", opt_json(e.record_id)},
          {"pg_id", opt_json(e.pg_id)},
          {"pg_name", opt_json(e.pg_name)},
          {"pg_desc", opt_json(e.pg_desc)},
          {"collective_seq_id", opt_json(e.collective_seq_id)},
          {"p2p_seq_id", opt_json(e.p2p_seq_id)},
          {"op_id", opt_json(e.op_id)},
          {"profiling_name", opt_json(e.profiling_name)},
          {"time_created_ns", opt_json(e.time_created_ns)},
          {"time_discovered_started_ns", opt_json(e.time_discovered_started_ns)},
          {"time_discovered_completed_ns", opt_json(e.time_discovered_completed_ns)},
          {"duration_ms", opt_json(e.duration_ms)},
          {"input_sizes", opt_json(e.input_sizes)},
          {"input_dtypes", opt_json(e.input_dtypes)},
          {"output_sizes", opt_json(e.output_sizes)},
          {"output_dtypes", opt_json(e.output_dtypes)},
          {"state", opt_json(e.state)},
          {"timeout_ms", opt_json(e.timeout_ms)},
          {"is_p2p", opt_json(e.is_p2p)},
          {"retired", opt_json(e.retired)},
          {"thread_name", opt_json(e.thread_name)},
          {"thread_id", opt_json(e.thread_id)},
          {"frames", frames}};
}

json to_json(const FrRankDump& d) {
  using core::opt_json;
  json cfg = json::array(), st = json::array(), es = json::array();
  for (const auto& c : d.pg_config)
    cfg.push_back({{"key", c.key}, {"name", opt_json(c.name)}, {"desc", opt_json(c.desc)},
                   {"ranks", opt_json(c.ranks)}});
  for (const auto& s : d.pg_status)
    st.push_back({{"pg_id", s.pg_id}, {"last_enqueued_collective", opt_json(s.last_enqueued)},
                  {"last_started_collective", opt_json(s.last_started)},
                  {"last_completed_collective", opt_json(s.last_completed)}});
  for (const auto& e : d.entries) es.push_back(to_json(e));
  return {{"file", d.file},
          {"rank", opt_json(d.rank)},
          {"format", d.format},
          {"version", opt_json(d.version)},
          {"comm_lib_version", opt_json(d.comm_lib_version)},
          {"pg_config", cfg},
          {"pg_status", st},
          {"entries", d.has_entries ? es : json(nullptr)},
          {"warnings", d.warnings}};
}

json to_json(const FrDump& d) {
  json ranks = json::array();
  for (const auto& r : d.ranks) ranks.push_back(to_json(r));
  return {{"source", d.source}, {"ranks", ranks}, {"warnings", d.warnings}};
}

}  // namespace ncdx::analyze
