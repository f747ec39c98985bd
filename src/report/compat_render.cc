#include "report/compat_render.h"

#include <sstream>

#include "core/outcome.h"
#include "core/table.h"
#include "report/summary_json.h"
#include "report/text_wrap.h"

namespace ncdx::report {

std::string render_compat_text(const analyze::CompatReport& r, bool color, std::size_t width) {
  std::ostringstream o;
  // Piped, long cells are cut so rows stay one line each; on a terminal they wrap whole instead
  // (as doctor's tables): paths and versions are what a user copies.
  auto cap = [&](std::size_t piped) -> std::size_t { return width ? 0 : piped; };
  core::Table comps({"COMPONENT", "VERSION", "FOUND AT"});
  for (const auto& c : r.components)
    comps.add({c.name, c.version.value_or("not found"), c.source.empty() ? "-" : c.source});
  o << comps.render(color, cap(80), width) << "\n";
  if (!r.gpu_models.empty()) {
    std::string gpus;
    for (const auto& g : r.gpu_models) gpus += (gpus.empty() ? "[" : " [") + g + "]";
    o << hanging("GPUs: ", gpus, width) << "\n";
  }
  if (r.rows.empty()) {
    o << hanging("", "No checks apply (nothing detected; pass versions as flags, e.g. --driver 550.54.14 --torch 2.6.0).", width);
    return o.str();
  }
  core::Table t({"STATUS", "CHECK", "FOUND", "EXPECTED"});
  for (const auto& x : r.rows)
    t.add({core::Cell(core::to_string(x.status), core::color_of(x.status)), x.check, x.found,
           x.expected.empty() ? "-" : x.expected});
  t.wrap_columns({2, 3});
  o << t.render(color, cap(70), width) << "\n";
  int i = 0;
  for (const auto& x : r.rows) {
    if (x.why.empty()) continue;
    o << hanging("[" + std::to_string(++i) + "] ", x.check + ": " + x.why, width);
    if (!x.fix.empty()) o << hanging("    fix: ", x.fix, width);
    if (!x.source.empty()) o << hanging("    source: ", x.source, width);
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
