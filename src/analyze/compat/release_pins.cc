#include "analyze/compat/release_pins.h"

#include <stdexcept>

#include "knowledge/compat_pins.h"

namespace ncdx::analyze {
namespace {

const knowledge::CompatPins& table() {
  auto t = knowledge::CompatPins::get();
  if (!t) throw std::runtime_error(t.status().message());  // compiled in: a bad row is a bug in ncdx
  return **t;
}

std::string source_of(const knowledge::CompatPin& p) {
  return "PyPI " + p.package + " " + p.version + " metadata: " + p.requirement();
}

// SGLang <= 0.5.2 put its CUDA dependencies (torch included) in the `srt` extra that its install
// docs use (`pip install "sglang[srt]"`); later releases require them plainly. Other extras
// (srt-hip, srt-cpu, blackwell, cu130) are other builds.
bool default_install(const knowledge::CompatPin& p) { return p.extra.empty() || p.extra == "srt"; }

}  // namespace

std::optional<ReleasePin> release_pin(const std::string& package, const std::string& version,
                                      const std::string& dependency, const std::string& extra) {
  const auto& t = table();
  for (const auto* p : t.pins(package, t.release(package, version), dependency))
    if (p->extra == extra && !p->spec.empty()) return ReleasePin{p->dependency, p->spec, source_of(*p)};
  return std::nullopt;
}

bool release_listed(const std::string& package, const std::string& version) {
  return !table().release(package, version).empty();
}

void check_engine_torch(std::vector<CompatRow>& rows, const std::string& engine, const std::string& engine_version,
                        const std::string& torch_version) {
  const auto& t = table();
  const std::string check = engine + "-torch", found = engine + " " + engine_version + ", torch " + torch_version;
  const std::string rel = t.release(engine, engine_version);
  if (rel.empty()) {
    rows.push_back(
        {check, core::Outcome::skip, found, "",
         engine + " " + engine_version + " is not in compat_pins.tsv (the release list of scripts/compat-pins.py).", "",
         ""});
    return;
  }
  std::vector<const knowledge::CompatPin*> all, plain;
  for (const auto* p : t.pins(engine, rel, "torch"))
    if (!p->spec.empty()) {
      all.push_back(p);
      if (default_install(*p)) plain.push_back(p);
    }
  if (all.empty()) return;
  // The plain install's pin first; a pin of another build (sglang[cu130]) also fits that build.
  for (const auto* list : {&plain, &all})
    for (const auto* p : *list)
      if (satisfies(torch_version, p->spec)) {
        rows.push_back({check, core::Outcome::pass, found, "torch" + p->spec, "", "", source_of(*p)});
        return;
      }
  const auto* want = plain.empty() ? all.front() : plain.front();
  // The releases of this engine whose plain install accepts the torch that is installed.
  std::vector<std::string> fits;
  for (const auto& v : t.releases(engine))
    for (const auto* p : t.pins(engine, v, "torch"))
      if (default_install(*p) && !p->spec.empty() && satisfies(torch_version, p->spec)) {
        fits.push_back(v);
        break;
      }
  std::string fix = "pip install 'torch" + want->spec + "'";
  if (!fits.empty())
    fix += ", or the " + engine + " release built for this torch (" + engine + " " +
           (fits.size() == 1 ? fits.front() : fits.front() + " … " + fits.back()) + ")";
  rows.push_back({check, core::Outcome::warn, found, "torch" + want->spec,
                  engine + " " + rel + "'s wheel requires torch" + want->spec + "; torch " + torch_version +
                      " breaks that requirement (pip check reports it), and " +
                      (engine == "vllm" ? "vllm._C" : "sgl-kernel") +
                      ", compiled for the pinned torch, may fail to load.",
                  fix + ".", source_of(*want)});
}

}  // namespace ncdx::analyze
