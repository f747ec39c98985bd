// The typed Flight Recorder model: raw dump JSON → FrRankDump, and back to JSON for reports.
// Field types follow abi.md §6.3; the JSON variant's stringified pg_status numbers and 0-for-unset
// times are read as what they mean. A field of the wrong type is dropped with a warning.
#include <cmath>

#include "analyze/fr_reader.h"
#include "core/json.h"
#include "core/strings.h"

namespace ncdx::analyze {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxWarnings = 20;

class Fields {
 public:
  Fields(FrRankDump& d) : d_(d) {}  // NOLINT
  void warn(const std::string& w) {
    if (++count_ <= kMaxWarnings) d_.warnings.push_back(d_.file + ": " + w);
    else if (count_ == kMaxWarnings + 1) d_.warnings.push_back(d_.file + ": more field warnings omitted");
  }
  const json* find(const json& o, const char* key) {
    auto it = o.find(key);
    if (it == o.end() || it->is_null()) return nullptr;
    return &*it;
  }
  std::optional<long long> integer(const json& o, const char* key, const std::string& ctx) {
    const json* v = find(o, key);
    if (!v) return std::nullopt;
    if (v->is_number_integer()) {
      if (v->is_number_unsigned() && v->get<unsigned long long>() > 0x7fffffffffffffffull) {
        warn(ctx + key + " is out of range");
        return std::nullopt;
      }
      return v->get<long long>();
    }
    if (v->is_number_float()) {
      double x = v->get<double>();
      if (std::isfinite(x) && x == std::floor(x) && std::fabs(x) < 9e18) return static_cast<long long>(x);
    }
    if (v->is_string())  // the JSON variant writes pg_status numbers as strings
      if (auto x = core::parse_int(v->get<std::string>())) return x;
    warn(ctx + key + " is not an integer");
    return std::nullopt;
  }
  std::optional<std::string> text(const json& o, const char* key, const std::string& ctx) {
    const json* v = find(o, key);
    if (!v) return std::nullopt;
    if (v->is_string()) return v->get<std::string>();
    if (v->is_number_integer()) return v->dump();  // thread_id has been seen as a number too
    warn(ctx + key + " is not a string");
    return std::nullopt;
  }
  std::optional<bool> boolean(const json& o, const char* key, const std::string& ctx) {
    const json* v = find(o, key);
    if (!v) return std::nullopt;
    if (v->is_boolean()) return v->get<bool>();
    warn(ctx + key + " is not a bool");
    return std::nullopt;
  }
  std::optional<double> real(const json& o, const char* key, const std::string& ctx) {
    const json* v = find(o, key);
    if (!v) return std::nullopt;
    if (v->is_number()) return v->get<double>();
    warn(ctx + key + " is not a number");
    return std::nullopt;
  }
  std::optional<std::vector<std::vector<long long>>> shapes(const json& o, const char* key,
                                                            const std::string& ctx) {
    const json* v = find(o, key);
    if (!v) return std::nullopt;
    std::vector<std::vector<long long>> out;
    bool ok = v->is_array();
    for (std::size_t i = 0; ok && i < v->size(); ++i) {
      const json& s = (*v)[i];
      ok = s.is_array();
      std::vector<long long> dims;
      for (std::size_t k = 0; ok && k < s.size(); ++k) {
        ok = s[k].is_number_integer();
        if (ok) dims.push_back(s[k].get<long long>());
      }
      out.push_back(std::move(dims));
    }
    if (!ok) {
      warn(ctx + key + " is not a list of shapes");
      return std::nullopt;
    }
    return out;
  }
  std::optional<std::vector<std::string>> strings(const json& o, const char* key, const std::string& ctx) {
    const json* v = find(o, key);
    if (!v) return std::nullopt;
    std::vector<std::string> out;
    bool ok = v->is_array();
    for (std::size_t i = 0; ok && i < v->size(); ++i) {
      ok = (*v)[i].is_string();
      if (ok) out.push_back((*v)[i].get<std::string>());
    }
    if (!ok) {
      warn(ctx + key + " is not a list of strings");
      return std::nullopt;
    }
    return out;
  }

 private:
  FrRankDump& d_;
  std::size_t count_ = 0;
};

std::optional<std::vector<int>> parse_ranks(const json& v) {
  json list = v;
  if (v.is_string()) {
    auto p = core::parse_json(v.get<std::string>(), "ranks");
    if (!p) return std::nullopt;
    list = *p;
  }
  if (!list.is_array()) return std::nullopt;
  std::vector<int> out;
  for (const auto& r : list) {
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

FrEntry parse_entry(const json& e, std::size_t index, bool json_form, Fields& f) {
  FrEntry x;
  x.index = index;
  std::string ctx = "entries[" + std::to_string(index) + "].";
  x.record_id = f.integer(e, "record_id", ctx);
  x.pg_id = f.integer(e, "pg_id", ctx);
  if (const json* pg = f.find(e, "process_group")) {
    if (pg->is_array() && pg->size() == 2 && (*pg)[0].is_string() && (*pg)[1].is_string()) {
      x.pg_name = (*pg)[0].get<std::string>();
      x.pg_desc = (*pg)[1].get<std::string>();
    } else {
      f.warn(ctx + "process_group is not a (name, desc) pair");
    }
  }
  x.collective_seq_id = f.integer(e, "collective_seq_id", ctx);
  x.p2p_seq_id = f.integer(e, "p2p_seq_id", ctx);
  x.op_id = f.integer(e, "op_id", ctx);
  x.profiling_name = f.text(e, "profiling_name", ctx);
  x.time_created_ns = f.integer(e, "time_created_ns", ctx);
  x.time_discovered_started_ns = f.integer(e, "time_discovered_started_ns", ctx);
  x.time_discovered_completed_ns = f.integer(e, "time_discovered_completed_ns", ctx);
  if (json_form) {  // dump_json writes 0 for "not yet"
    if (x.time_discovered_started_ns == 0) x.time_discovered_started_ns.reset();
    if (x.time_discovered_completed_ns == 0) x.time_discovered_completed_ns.reset();
  }
  x.duration_ms = f.real(e, "duration_ms", ctx);
  x.input_sizes = f.shapes(e, "input_sizes", ctx);
  x.output_sizes = f.shapes(e, "output_sizes", ctx);
  x.input_dtypes = f.strings(e, "input_dtypes", ctx);
  x.output_dtypes = f.strings(e, "output_dtypes", ctx);
  x.state = f.text(e, "state", ctx);
  if (x.state && *x.state != "scheduled" && *x.state != "started" && *x.state != "completed")
    f.warn(ctx + "state '" + *x.state + "' is not scheduled/started/completed");
  x.timeout_ms = f.integer(e, "timeout_ms", ctx);
  x.is_p2p = f.boolean(e, "is_p2p", ctx);
  x.retired = f.boolean(e, "retired", ctx);
  x.thread_name = f.text(e, "thread_name", ctx);
  x.thread_id = f.text(e, "thread_id", ctx);
  if (const json* fr = f.find(e, "frames")) {
    if (fr->is_array()) {
      std::vector<FrFrame> frames;
      for (const auto& one : *fr) {
        if (!one.is_object()) continue;
        FrFrame fm;
        fm.name = f.text(one, "name", ctx + "frames.").value_or("");
        fm.filename = f.text(one, "filename", ctx + "frames.").value_or("");
        fm.line = f.integer(one, "line", ctx + "frames.");
        frames.push_back(std::move(fm));
      }
      x.frames = std::move(frames);
    } else {
      f.warn(ctx + "frames is not a list");
    }
  }
  return x;
}

}  // namespace

std::string FrEntry::op() const {
  if (!profiling_name) return "";
  std::string_view s = *profiling_name;
  auto colon = s.find(':');
  if (colon != std::string_view::npos) s.remove_prefix(colon + 1);
  auto space = s.find(' ');
  return std::string(s.substr(0, space));
}

core::Result<FrRankDump> parse_fr_dump(const json& raw, const std::string& file, std::optional<int> rank,
                                       std::string format) {
  if (!raw.is_object())
    return core::Status::bad_input(file + ": expected a Flight Recorder dump (a dict), found a " +
                                   std::string(raw.type_name()));
  if (!raw.contains("version") && !raw.contains("pg_config") && !raw.contains("entries") &&
      !raw.contains("pg_status"))
    return core::Status::bad_input(file + ": not a Flight Recorder dump (no version, pg_config, "
                                          "pg_status or entries key)");
  FrRankDump d;
  d.file = file;
  d.rank = rank;
  d.format = std::move(format);
  bool json_form = d.format == "json";
  Fields f(d);
  d.version = f.text(raw, "version", "");
  d.comm_lib_version = f.text(raw, "comm_lib_version", "");
  check_version(d);
  if (const json* cfg = f.find(raw, "pg_config")) {
    if (!cfg->is_object()) return core::Status::bad_input(file + ": pg_config is not a dict");
    for (const auto& [key, v] : cfg->items()) {
      FrPgConfig c;
      c.key = key;
      if (v.is_object()) {
        c.name = f.text(v, "name", "pg_config." + key + ".");
        c.desc = f.text(v, "desc", "pg_config." + key + ".");
        if (auto r = v.find("ranks"); r != v.end() && !r->is_null()) {
          c.ranks = parse_ranks(*r);
          if (!c.ranks) f.warn("pg_config." + key + ".ranks is not a list of ranks");
        }
      }
      d.pg_config.push_back(std::move(c));
    }
  }
  if (const json* st = f.find(raw, "pg_status")) {
    if (!st->is_object()) return core::Status::bad_input(file + ": pg_status is not a dict");
    for (const auto& [key, v] : st->items()) {
      FrPgStatus s;
      s.pg_id = key;
      if (v.is_object()) {
        std::string ctx = "pg_status." + key + ".";
        s.last_enqueued = f.integer(v, "last_enqueued_collective", ctx);
        s.last_started = f.integer(v, "last_started_collective", ctx);
        s.last_completed = f.integer(v, "last_completed_collective", ctx);
      }
      d.pg_status.push_back(std::move(s));
    }
  }
  if (const json* es = f.find(raw, "entries")) {
    if (!es->is_array()) return core::Status::bad_input(file + ": entries is not a list");
    d.has_entries = true;
    d.entries.reserve(es->size());
    for (std::size_t i = 0; i < es->size(); ++i) {
      if (!(*es)[i].is_object()) {
        f.warn("entries[" + std::to_string(i) + "] is not a dict; skipped");
        continue;
      }
      d.entries.push_back(parse_entry((*es)[i], i, json_form, f));
    }
  }
  return d;
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
