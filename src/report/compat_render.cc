#include "report/compat_render.h"

#include <sstream>

#include "core/outcome.h"
#include "core/table.h"
#include "report/summary_json.h"

namespace ncdx::report {

std::string render_compat_text(const analyze::CompatReport& r, bool color) {
  std::ostringstream o;
  core::Table comps({"COMPONENT", "VERSION", "FOUND AT"});
  for (const auto& c : r.components)
    comps.add({c.name, c.version.value_or("not found"), c.source.empty() ? "-" : c.source});
  o << comps.render(color, 80) << "\n";
  if (!r.gpu_models.empty()) {
    o << "GPUs:";
    for (const auto& g : r.gpu_models) o << " [" << g << "]";
    o << "\n\n";
  }
  if (r.rows.empty()) {
    o << "No checks apply (nothing detected; pass versions as flags, e.g. --driver 550.54.14 --torch 2.6.0).\n";
    return o.str();
  }
  core::Table t({"STATUS", "CHECK", "FOUND", "EXPECTED"});
  for (const auto& x : r.rows)
    t.add({core::Cell(core::to_string(x.status), core::color_of(x.status)), x.check, x.found,
           x.expected.empty() ? "-" : x.expected});
  o << t.render(color, 70) << "\n";
  int i = 0;
  for (const auto& x : r.rows) {
    if (x.why.empty()) continue;
    o << "[" << ++i << "] " << x.check << ": " << x.why << "\n";
    if (!x.fix.empty()) o << "    fix: " << x.fix << "\n";
    if (!x.source.empty()) o << "    source: " << x.source << "\n";
  }
  return o.str();
}

nlohmann::json compat_json(const analyze::CompatReport& r, nlohmann::json context, const std::vector<std::string>& site_dirs) {
  nlohmann::json j = {{"schema", "ncdx.compat/1"}};
  j["context"] = std::move(context);
  const nlohmann::json body = analyze::to_json(r);
  for (auto& [k, v] : body.items()) j[k] = v;
  j["summary"] = summary_json(core::tally_of(r.rows));
  j["site_dirs"] = site_dirs;
  return j;
}

}  // namespace ncdx::report
