#include "model/tune/ompi_rules.h"

#include <algorithm>
#include <sstream>

#include "core/strings.h"
#include "knowledge/embedded.h"

namespace ncdx::model::tune {

core::Result<std::vector<TableRow>> ompi_table_rows(std::string_view name) {
  auto text = knowledge::embedded(name);
  if (!text) return core::Status::internal("knowledge file " + std::string(name) + " is missing");
  std::vector<TableRow> out;
  int lineno = 0;
  bool header = true;
  for (std::string_view line : core::split(*text, '\n')) {
    ++lineno;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line[0] == '#') continue;
    if (header) {
      header = false;
      continue;
    }
    out.push_back({lineno, core::split(line, '\t')});
  }
  return out;
}

core::Result<std::vector<OmpiAlgorithm>> ompi_algorithms() {
  auto rows = ompi_table_rows("ompi_coll_tuned.tsv");
  if (!rows) return rows.status();
  std::vector<OmpiAlgorithm> out;
  for (const auto& [lineno, f] : *rows) {
    auto bad = [&, lineno = lineno] {
      return core::Status::internal("ompi_coll_tuned.tsv:" + std::to_string(lineno) + ": expected 8 tab-separated fields");
    };
    if (f.size() != 8) return bad();
    auto coll = measure::parse_collective(f[0]);
    auto ct = core::parse_int(f[2]), id = core::parse_int(f[3]), seg = core::parse_int(f[5]), lo = core::parse_int(f[6]),
         hi = core::parse_int(f[7]);
    if (!coll || !ct || !id || !seg || !lo || !hi) return bad();
    out.push_back({*coll, std::string(f[1]), static_cast<int>(*ct), static_cast<int>(*id), std::string(f[4]), *seg != 0,
                   static_cast<int>(*lo), static_cast<int>(*hi)});
  }
  return out;
}

std::vector<OmpiAlgorithm> ompi_algorithms_for(const std::vector<OmpiAlgorithm>& all, measure::Collective c, int nranks) {
  std::vector<OmpiAlgorithm> out;
  for (const auto& a : all)
    if (a.coll == c && nranks >= a.min_ranks && (a.max_ranks == 0 || nranks <= a.max_ranks)) out.push_back(a);
  return out;
}

std::string label(const OmpiConfig& c, const std::vector<OmpiAlgorithm>& algs, measure::Collective coll) {
  if (c.alg == 0) return "default";
  std::string name = std::to_string(c.alg);
  for (const auto& a : algs)
    if (a.coll == coll && a.id == c.alg) name = a.name;
  if (c.knob > 0) name += "/seg" + core::human_bytes(static_cast<double>(c.knob));
  return name;
}

std::string render_dynamic_rules(const std::vector<OmpiCollRules>& colls, const std::string& header_comment) {
  std::ostringstream o;
  for (const auto& l : core::split(header_comment, '\n'))
    if (!l.empty()) o << "# " << l << "\n";
  o << colls.size() << "  # number of collectives\n";
  for (const auto& c : colls) {
    if (!c.comment.empty()) o << "# " << c.comment << "\n";
    auto rules = c.rules;
    std::sort(rules.begin(), rules.end(), [](const OmpiRule& a, const OmpiRule& b) { return a.from_bytes < b.from_bytes; });
    if (rules.empty() || rules.front().from_bytes != 0) rules.insert(rules.begin(), OmpiRule{0, {}});
    // Adjacent buckets with the same choice make one rule.
    std::vector<OmpiRule> merged;
    for (const auto& r : rules)
      if (merged.empty() || !(merged.back().cfg == r.cfg)) merged.push_back(r);
    o << c.colltype << "  # collective id\n";
    o << "1  # number of communicator sizes\n";
    o << c.comm_size << "  # communicator size\n";
    o << merged.size() << "  # number of message sizes\n";
    for (const auto& r : merged) o << r.from_bytes << " " << r.cfg.alg << " 0 " << r.cfg.knob << "\n";
  }
  return o.str();
}

std::vector<std::pair<std::string, std::string>> forced_mca(const OmpiAlgorithm& a, const OmpiConfig& c) {
  if (c.alg == 0) return {};
  std::vector<std::pair<std::string, std::string>> m{{"coll_tuned_use_dynamic_rules", "1"},
                                                     {"coll_tuned_" + a.ompi_coll + "_algorithm", std::to_string(c.alg)}};
  if (c.knob > 0) m.emplace_back("coll_tuned_" + a.ompi_coll + "_algorithm_segmentsize", std::to_string(c.knob));
  return m;
}

}  // namespace ncdx::model::tune
