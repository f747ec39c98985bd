#include "analyze/results/load.h"

#include <algorithm>
#include <regex>
#include <sstream>

#include "core/json.h"
#include "core/read_bounded.h"

namespace ncdx::analyze {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxResultBytes = 256u << 20;  // a result is a report, not a trace
constexpr int kMaxDepth = 4;                          // how deep matrices are looked for

std::string str(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return {};
  if (it->is_string()) return it->get<std::string>();
  if (it->is_number() || it->is_boolean()) return it->dump();
  return {};
}

std::string first_of(const json& j, std::initializer_list<const char*> keys) {
  for (const char* k : keys) {
    auto s = str(j, k);
    if (!s.empty()) return s;
  }
  return {};
}

// PASS/INFO/WARN/FAIL/SKIP from a row's own status, or from a finding's severity.
std::optional<std::string> outcome_of(const json& row) {
  auto s = str(row, "status");
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  if (s == "PASS" || s == "INFO" || s == "WARN" || s == "FAIL" || s == "SKIP") return s;
  if (s == "OK") return std::string("PASS");
  auto sev = str(row, "severity");
  if (sev == "critical" || sev == "error") return std::string("FAIL");
  if (sev == "warn" || sev == "warning") return std::string("WARN");
  if (sev == "info") return std::string("INFO");
  return std::nullopt;
}

std::string detail_of(const json& row) {
  if (auto it = row.find("evidence"); it != row.end()) {
    if (it->is_string()) return it->get<std::string>();
    if (it->is_array() && !it->empty() && (*it)[0].is_object()) return str((*it)[0], "text");
  }
  return first_of(row, {"summary", "why", "risk", "cause", "reason"});
}

std::string fix_of(const json& row) {
  if (auto it = row.find("fix"); it != row.end()) {
    if (it->is_string()) return it->get<std::string>();
    if (it->is_object()) return str(*it, "action");
  }
  if (auto it = row.find("fixes"); it != row.end() && it->is_array() && !it->empty() && (*it)[0].is_object())
    return str((*it)[0], "action");
  auto rec = str(row, "recommended");
  return rec == "-" ? std::string() : rec;
}

ResultItem item_of(const json& row, const std::string& status) {
  ResultItem it;
  it.status = status;
  it.id = first_of(row, {"id", "rule", "parameter", "key", "name", "class"});
  auto title = str(row, "title");
  if (title.empty()) {
    auto name = first_of(row, {"parameter", "key", "name", "component"});
    auto value = str(row, "value");
    title = value.empty() ? name : name + " = " + value;
  }
  it.title = title.empty() ? it.id : title;
  it.detail = detail_of(row);
  it.fix = fix_of(row);
  return it;
}

int rank(const std::string& status) {
  if (status == "FAIL") return 0;
  if (status == "WARN") return 1;
  if (status == "INFO") return 2;
  if (status == "PASS") return 3;
  return 4;  // SKIP: never above a failure
}

std::string unit_for(const std::string& path) {
  // doctor names its GPU copy matrix *_gbps in GB/s (report/doctor_render.cc); the network
  // matrices of cluster mode use Gb/s, as NIC rates are quoted.
  auto ends = [&](std::string_view s) { return path.size() >= s.size() && path.compare(path.size() - s.size(), s.size(), s) == 0; };
  if (path.rfind("matrices.copy_", 0) == 0 && ends("_gbps")) return "GB/s";
  if (ends("_us")) return "µs";
  if (ends("_ms")) return "ms";
  if (ends("_gbps")) return "Gb/s";
  if (ends("_GBps") || ends("_gb_per_s")) return "GB/s";
  if (ends("_pct") || ends("_percent") || ends("fraction")) return ends("fraction") ? "fraction" : "%";
  if (ends("_bytes")) return "B";
  return "";
}

std::vector<std::string> labels_beside(const json& parent, std::size_t n) {
  for (const char* k : {"labels", "hosts", "ranks", "gpus", "devices", "nodes"}) {
    auto it = parent.find(k);
    if (it == parent.end() || !it->is_array() || it->size() != n) continue;
    std::vector<std::string> out;
    for (const auto& v : *it) out.push_back(v.is_string() ? v.get<std::string>() : v.dump());
    return out;
  }
  std::vector<std::string> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(std::to_string(i));
  return out;
}

// A rectangular array of arrays of numbers/null, or of short strings, is a matrix.
void find_matrices(const json& j, const std::string& path, int depth, std::vector<ResultMatrix>& out) {
  if (depth > kMaxDepth || !j.is_object()) return;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const json& v = it.value();
    std::string p = path.empty() ? it.key() : path + "." + it.key();
    if (v.is_object()) {
      find_matrices(v, p, depth + 1, out);
      continue;
    }
    if (!v.is_array() || v.empty() || !v[0].is_array() || v[0].empty()) continue;
    std::size_t cols = v[0].size();
    bool numeric = true, text = true;
    for (const auto& row : v) {
      if (!row.is_array() || row.size() != cols) { numeric = text = false; break; }
      for (const auto& c : row) {
        if (!(c.is_number() || c.is_null())) numeric = false;
        if (!(c.is_string() && c.get_ref<const std::string&>().size() <= 16)) text = false;
      }
    }
    if (!numeric && !text) continue;
    ResultMatrix m;
    m.title = p;
    m.unit = numeric ? unit_for(p) : "";
    m.row_labels = labels_beside(j, v.size());
    m.col_labels = labels_beside(j, cols);
    for (const auto& row : v) {
      if (numeric) {
        auto& r = m.values.emplace_back();
        for (const auto& c : row) r.push_back(c.is_number() ? std::optional<double>(c.get<double>()) : std::nullopt);
      } else {
        auto& r = m.cells.emplace_back();
        for (const auto& c : row) r.push_back(c.get<std::string>());
      }
    }
    out.push_back(std::move(m));
  }
}

}  // namespace

core::Result<ResultDoc> normalise_result(const json& doc, const std::string& path) {
  static const std::regex schema_re(R"(ncdx\.([a-z][a-z0-9-]*)/[0-9]+)");
  std::smatch m;
  std::string schema = doc.is_object() ? str(doc, "schema") : std::string();
  if (!std::regex_match(schema, m, schema_re))
    return core::Status::bad_input(path + ": not an ncdx JSON result (expected an object with \"schema\": \"ncdx.<command>/<n>\")");
  ResultDoc r;
  r.path = path;
  r.schema = schema;
  r.command = m[1];
  std::optional<ResultItem> verdict;
  if (auto v = doc.find("verdict"); v != doc.end() && v->is_object()) {
    r.headline = str(*v, "class") + (str(*v, "title").empty() ? "" : ": " + str(*v, "title"));
    if (auto c = v->find("culprit"); c != v->end() && c->is_object()) {
      std::string who;
      for (const char* k : {"ranks", "hosts", "devices"}) {
        auto a = c->find(k);
        if (a == c->end() || !a->is_array() || a->empty()) continue;
        std::string list;
        for (const auto& x : *a) list += (list.empty() ? "" : ",") + (x.is_string() ? x.get<std::string>() : x.dump());
        who += std::string(who.empty() ? "" : "; ") + k + " " + list;
      }
      if (!who.empty()) r.headline += " (culprit: " + who + ")";
    }
    if (auto s = outcome_of(*v)) {
      verdict = item_of(*v, *s);
      r.items.push_back(*verdict);
    }
  }
  for (const char* key : {"checks", "rows", "findings", "consistency"}) {
    auto it = doc.find(key);
    if (it == doc.end() || !it->is_array()) continue;
    for (const auto& row : *it) {
      if (!row.is_object()) continue;
      auto s = outcome_of(row);
      if (!s) continue;
      auto item = item_of(row, *s);
      if (verdict && item.id == verdict->id && item.title == verdict->title) continue;  // triage lists its verdict among the findings
      r.items.push_back(std::move(item));
    }
  }
  std::stable_sort(r.items.begin(), r.items.end(),
                   [](const ResultItem& a, const ResultItem& b) { return rank(a.status) < rank(b.status); });
  find_matrices(doc, "", 0, r.matrices);
  if (auto it = doc.find("summary"); it != doc.end() && it->is_object()) {
    core::Tally t;
    bool whole = true;
    for (auto [key, field] : {std::pair{"pass", &t.pass}, {"info", &t.info}, {"warn", &t.warn}, {"fail", &t.fail}, {"skip", &t.skip}}) {
      auto v = it->find(key);
      if (v == it->end() || !v->is_number_integer() || v->get<long long>() < 0 || v->get<long long>() > 1'000'000'000) {
        whole = false;
        break;
      }
      *field = static_cast<int>(v->get<long long>());
    }
    if (whole) r.summary = t;
  }
  r.exit_code = 0;
  for (const auto& i : r.items) {
    if (i.status == "FAIL") r.exit_code = 2;
    else if (i.status == "WARN" && r.exit_code < 1) r.exit_code = 1;
  }
  return r;
}

core::Result<std::vector<ResultDoc>> load_results(const std::vector<std::string>& paths) {
  std::vector<ResultDoc> out;
  for (const auto& p : paths) {
    auto text = core::read_bounded(p, kMaxResultBytes, "not an ncdx result");
    if (!text) return text.status();
    auto j = core::parse_json(*text, p);
    if (!j) return j.status();
    auto doc = normalise_result(*j, p);
    if (!doc) return doc.status();
    out.push_back(std::move(*doc));
  }
  return out;
}

}  // namespace ncdx::analyze
