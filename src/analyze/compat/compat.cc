#include "analyze/compat/compat.h"

#include <regex>
#include <stdexcept>

#include "analyze/compat/release_pins.h"
#include "core/semver.h"
#include "core/strings.h"
#include "knowledge/yaml_load.h"

namespace ncdx::analyze {
namespace {

using core::Version;

const YAML::Node& table() {
  static const YAML::Node t = [] {
    auto doc = knowledge::load_embedded_yaml("compat.yaml");
    if (!doc) throw std::runtime_error(doc.status().message());
    return *doc;
  }();
  return t;
}

std::string s(const YAML::Node& n, const char* k) { return n[k] ? n[k].as<std::string>() : std::string(); }

// A known_bad row's status (compat.yaml is compiled in; a typo there is a bug in ncdx).
core::Outcome status_of(const YAML::Node& kb) {
  auto o = core::parse_outcome(s(kb, "status"));
  if (!o) throw std::runtime_error("compat.yaml: known_bad " + s(kb, "id") + ": status must be PASS, WARN, FAIL or SKIP");
  return *o;
}

// "12.4.127" -> "12.4"; "2.6.0+cu124" -> "12.4" (torch's local version tag).
std::optional<std::string> cuda_of_torch(const std::string& torch) {
  static const std::regex re(R"(\+cu(\d+)(\d)$)");
  std::smatch m;
  if (std::regex_search(torch, m, re)) return m[1].str() + "." + m[2].str();
  return std::nullopt;
}

std::string major_minor(const std::string& v) {
  auto p = Version::parse(v);
  return p ? std::to_string(p->major) + "." + std::to_string(p->minor) : v;
}

struct Resolver {
  const CompatInput& in;
  CompatReport& out;

  const probe::PythonPackage* package(const std::string& name) const {
    for (const auto& p : in.detected.packages)
      if (p.name == name) return &p;
    return nullptr;
  }
  void others(Component& c, const std::vector<probe::Sighting>& seen) {
    for (const auto& s : seen)
      if (!c.version || s.version != *c.version) c.others.push_back(s.version + " at " + s.where);
  }
  Component from_package(const std::string& name, const std::optional<std::string>& flag) {
    Component c{name, std::nullopt, "", {}};
    if (flag) { c.version = *flag; c.source = "flag"; return c; }
    for (const auto& p : in.detected.packages)
      if (p.name == name) {
        if (!c.version) { c.version = p.version; c.source = p.where; }
        else if (p.version != *c.version) c.others.push_back(p.version + " at " + p.where);
      }
    return c;
  }
};

void add(CompatReport& r, std::string check, core::Outcome status, std::string found, std::string expected,
         std::string why, std::string fix, std::string source) {
  r.rows.push_back({std::move(check), status, std::move(found), std::move(expected), std::move(why),
                    std::move(fix), std::move(source)});
}

const Component* comp(const CompatReport& r, const std::string& name) {
  for (const auto& c : r.components)
    if (c.name == name && c.version) return &c;
  return nullptr;
}

void check_driver(CompatReport& r, const Component* driver, const Component* cuda, const char* what) {
  std::string check = std::string("driver-") + what;
  if (!cuda) return;
  if (!driver) {
    add(r, check, core::Outcome::skip, "CUDA " + *cuda->version, "", "No NVIDIA driver version found (/proc/driver/nvidia/version); pass --driver.", "", "");
    return;
  }
  auto d = Version::parse(*driver->version);
  auto c = Version::parse(*cuda->version);
  if (!d || !c) return;
  const std::string mm = std::to_string(c->major) + "." + std::to_string(c->minor);
  std::optional<Version> ga, compat;
  std::string branch, ga_text, compat_text;  // as written: "520.61.05", not "520.61.5"
  for (const auto& e : table()["cuda_driver"])
    if (s(e, "cuda") == mm) { ga = Version::parse(s(e, "driver")); ga_text = s(e, "driver"); branch = s(e, "branch"); }
  for (const auto& e : table()["cuda_minor_compat"])
    if (e["major"].as<int>() == c->major) { compat = Version::parse(s(e, "driver")); compat_text = s(e, "driver"); }
  const std::string src = s(table(), "cuda_driver_source");
  const std::string found = "driver " + *driver->version + ", CUDA " + mm + " (" + what + ")";
  if (compat && *d < *compat) {
    add(r, check, core::Outcome::fail, found, ">= " + compat_text + " for any CUDA " + std::to_string(c->major) + ".x",
        "The driver is older than the minimum for CUDA " + std::to_string(c->major) +
            ".x minor-version compatibility: CUDA calls fail (cudaErrorInsufficientDriver).",
        "Install driver " + (ga ? ga_text + " (" + branch + ")" : compat_text) + " or newer, or use a CUDA " +
            std::to_string(c->major - 1) + ".x build.",
        src);
  } else if (ga && *d < *ga) {
    add(r, check, core::Outcome::warn, found, ">= " + ga_text + " (" + branch + ")",
        "Runs through minor-version compatibility, but features that need the toolkit's own driver (PTX JIT of "
        "newer PTX, new driver APIs) fail.",
        "Upgrade the driver to " + ga_text + " (" + branch + ") or newer.", src);
  } else if (!ga && !compat) {
    add(r, check, core::Outcome::skip, found, "", "CUDA " + mm + " is not in the driver table.", "", src);
  } else {
    add(r, check, core::Outcome::pass, found, ">= " + (ga ? ga_text : compat_text), "", "", src);
  }
}

// verl's pins: the engine extras (and the torch an extra pins) from verl's own metadata, which
// wins over anything written by hand; the CUDA floor and the vllm to avoid from its install docs.
void check_verl(CompatReport& r, const std::string& verl) {
  std::optional<YAML::Node> doc;  // the compat.yaml row of this release (verl-project/verl docs/start/install.rst)
  auto vv = Version::parse(verl);
  for (const auto& e : table()["verl"])
    if (vv && Version::parse(s(e, "verl")) == vv) doc = YAML::Node(e);
  if (!doc && !release_listed("verl", verl)) {
    add(r, "verl-pins", core::Outcome::skip, "verl " + verl, "",
        "No pins recorded for this verl release (compat_pins.tsv, compat.yaml).", "", "");
    return;
  }
  for (const char* engine : {"vllm", "sglang"}) {
    const Component* x = comp(r, engine);
    if (!x) continue;
    const std::string e = engine;
    if (auto pin = release_pin("verl", verl, e, e)) {
      bool ok = satisfies(*x->version, pin->spec);
      add(r, "verl-" + e, ok ? core::Outcome::pass : core::Outcome::warn, "verl " + verl + ", " + e + " " + *x->version,
          e + pin->spec, ok ? "" : "Outside verl " + verl + "'s " + e + " extra (" + e + pin->spec + ").",
          ok ? "" : "pip install '" + e + pin->spec + "' or use the verl release that supports this " + e + ".",
          pin->source);
    }
    std::string avoid = doc ? s(*doc, "avoid_vllm") : "";
    if (e == "vllm" && !avoid.empty() && major_minor(*x->version) == avoid)
      add(r, "verl-vllm-avoid", core::Outcome::warn, "vllm " + *x->version, "not vllm " + avoid + ".x",
          "verl " + verl + "'s install docs: 'Avoid using vllm 0.7x'.", "Use vllm 0.6.3 or 0.8.2 (tested by verl).",
          "verl-project/verl docs/start/install.rst");
    // verl <= 0.9.0 pins torch only in its sglang extra; 0.9.1 in every extra.
    if (const Component* t = comp(r, "torch"))
      if (auto pin = release_pin("verl", verl, "torch", e)) {
        bool ok = satisfies(*t->version, pin->spec);
        add(r, "verl-" + e + "-torch", ok ? core::Outcome::pass : core::Outcome::warn, "torch " + *t->version,
            "torch" + pin->spec, ok ? "" : "verl " + verl + "'s " + e + " extra pins torch" + pin->spec + ".",
            ok ? "" : "pip install 'torch" + pin->spec + "'", pin->source);
      }
  }
  std::string cmin = doc ? s(*doc, "cuda_min") : "";
  for (const char* which : {"torch_cuda", "cuda"})
    if (const Component* c = comp(r, which); c && !cmin.empty()) {
      bool ok = *Version::parse(*c->version) >= core::V(cmin);
      add(r, "verl-cuda", ok ? core::Outcome::pass : core::Outcome::warn, "verl " + verl + ", CUDA " + *c->version + " (" + which + ")",
          "CUDA >= " + cmin, ok ? "" : "verl's install docs ask for CUDA >= " + cmin + ".",
          ok ? "" : "Use a CUDA >= " + cmin + " build of torch.", "verl-project/verl docs/start/install.rst");
      break;
    }
}

}  // namespace

bool satisfies(const std::string& version, const std::string& spec) {
  auto v = Version::parse(version);
  if (!v) return false;
  for (auto part : core::split(spec, ',')) {
    part = core::trim(part);
    std::string op;
    for (const char* o : {"<=", ">=", "==", "!=", "<", ">"})
      if (part.substr(0, std::char_traits<char>::length(o)) == o) { op = o; break; }
    auto want = Version::parse(std::string(part.substr(op.size())));
    if (!want || op.empty()) return false;
    if (op == "<=" && !(*v <= *want)) return false;
    if (op == ">=" && !(*v >= *want)) return false;
    if (op == "<" && !(*v < *want)) return false;
    if (op == ">" && !(*v > *want)) return false;
    if (op == "!=" && *v == *want) return false;
    // "==0.4.6.post5": numbers and the post/dev suffix must match (a local "+cu124" tag is ignored).
    if (op == "==") {
      std::string vs = v->suffix.substr(0, v->suffix.find('+')), ws = want->suffix.substr(0, want->suffix.find('+'));
      if (!(*v == *want) || vs != ws) return false;
    }
  }
  return true;
}

CompatReport check_compat(const CompatInput& in) {
  CompatReport r;
  r.gpu_models = in.detected.gpu_models;
  Resolver res{in, r};
  // driver
  Component driver{"driver", in.driver, in.driver ? "flag" : "", {}};
  if (!driver.version && !in.detected.driver.empty()) {
    driver.version = in.detected.driver[0].version;
    driver.source = in.detected.driver[0].where;
  }
  Component torch = res.from_package("torch", in.torch);
  // NCCL: the pip wheel next to torch is what torch loads; otherwise the first library found.
  Component nccl{"nccl", in.nccl, in.nccl ? "flag" : "", {}};
  std::string nccl_dist;
  if (!nccl.version) {
    for (const auto& p : in.detected.packages)
      if (p.name.rfind("nvidia-nccl-cu", 0) == 0 && (!torch.version || torch.source.empty() ||
                                                      p.where.substr(0, p.where.rfind('/')) ==
                                                          torch.source.substr(0, torch.source.rfind('/')))) {
        nccl.version = p.version; nccl.source = p.where; nccl_dist = p.name;
        break;
      }
    if (!nccl.version && !in.detected.nccl.empty()) {
      nccl.version = in.detected.nccl[0].version;
      nccl.source = in.detected.nccl[0].where;
    }
  }
  res.others(nccl, in.detected.nccl);
  Component cuda{"cuda", in.cuda, in.cuda ? "flag" : "", {}};
  if (!cuda.version && !in.detected.cuda_runtime.empty()) {
    cuda.version = major_minor(in.detected.cuda_runtime[0].version);
    cuda.source = in.detected.cuda_runtime[0].where;
  }
  for (const auto& sgt : in.detected.cuda_runtime)
    if (!cuda.version || major_minor(sgt.version) != *cuda.version) cuda.others.push_back(sgt.version + " at " + sgt.where);
  Component torch_cuda{"torch_cuda", std::nullopt, "", {}};
  if (torch.version) {
    if (auto tc = cuda_of_torch(*torch.version)) {
      torch_cuda.version = *tc;
      torch_cuda.source = "torch wheel tag";
    } else if (const auto* p = res.package("torch"); p && !in.torch) {
      // PyPI default wheels: Requires-Dist nvidia-cuda-runtime-cuXY==... (torch <= 2.10), or
      // cuda-toolkit[cudart,...]==13.0.2 (torch >= 2.11, compat_pins.tsv).
      for (const auto& [name, v] : p->pins)
        if (name.rfind("nvidia-cuda-runtime-cu", 0) == 0 || name == "cuda-toolkit") {
          torch_cuda.version = major_minor(v);
          torch_cuda.source = p->where + "/METADATA Requires-Dist " + name;
        }
    }
  }
  r.components = {driver, cuda, torch_cuda, nccl, torch, res.from_package("verl", in.verl),
                  res.from_package("vllm", in.vllm), res.from_package("sglang", in.sglang)};

  const Component* drv = comp(r, "driver");
  check_driver(r, drv, comp(r, "cuda"), "cuda");
  check_driver(r, drv, comp(r, "torch_cuda"), "torch-cuda");

  // torch <-> NCCL: the wheel's own pin, else the table.
  if (const Component* t = comp(r, "torch")) {
    std::optional<std::string> pin;
    std::string src, pin_pkg = "nvidia-nccl-cu12";
    if (const auto* p = res.package("torch"); p && !in.torch)
      for (const auto& [name, v] : p->pins)
        if (name.rfind("nvidia-nccl-cu", 0) == 0) { pin = v; pin_pkg = name; src = p->where + "/METADATA Requires-Dist"; }
    // Else the release's PyPI metadata (compat_pins.tsv). A local build (+cu126) is looked up
    // under its release, as the hand-written table before it did; its own METADATA came first.
    for (const char* dist : {"nvidia-nccl-cu12", "nvidia-nccl-cu13"}) {
      if (pin) break;
      auto rp = release_pin("torch", *t->version, dist);
      if (rp && rp->spec.rfind("==", 0) == 0) { pin = rp->spec.substr(2); pin_pkg = dist; src = rp->source; }
    }
    const Component* n = comp(r, "nccl");
    if (!pin) {
      add(r, "torch-nccl", core::Outcome::skip, "torch " + *t->version, "", "No NCCL pin known for this torch build (not a PyPI default wheel?).", "", "");
    } else if (!n) {
      add(r, "torch-nccl", core::Outcome::skip, "torch " + *t->version, "NCCL " + *pin, "No NCCL library found; pass --nccl.", "", src);
    } else if (Version::parse(*n->version) == Version::parse(*pin)) {
      add(r, "torch-nccl", core::Outcome::pass, "torch " + *t->version + ", NCCL " + *n->version, "NCCL " + *pin, "", "", src);
    } else {
      add(r, "torch-nccl", core::Outcome::warn, "torch " + *t->version + ", NCCL " + *n->version, "NCCL " + *pin,
          "torch " + *t->version + " is built and tested with NCCL " + *pin + "; NCCL " + *n->version +
              " (" + n->source + ") is an untested pairing (pip check reports the broken pin).",
          "pip install " + pin_pkg + "==" + *pin + ", or keep the other NCCL deliberately (e.g. for a bug fix) and "
          "check `NCCL version` in the job log.",
          src);
    }
  }
  // NCCL wheel's CUDA major vs the CUDA in use (corpus nccl-tests-6, vllm-7201).
  if (!nccl_dist.empty()) {
    std::string nccl_major = nccl_dist.substr(std::string("nvidia-nccl-cu").size());
    for (const char* which : {"torch_cuda", "cuda"}) {
      const Component* c = comp(r, which);
      if (!c) continue;
      auto cv = Version::parse(*c->version);
      if (cv && std::to_string(cv->major) != nccl_major) {
        add(r, "nccl-cuda-major", core::Outcome::fail, nccl_dist + " " + *nccl.version + ", CUDA " + *c->version,
            "an NCCL build for CUDA " + std::to_string(cv->major),
            "The NCCL wheel is built for CUDA " + nccl_major + " but " + which + " is CUDA " + *c->version +
                "; a mismatched NCCL build fails at init (corpus nccl-tests-6, vllm-7201).",
            "Install nvidia-nccl-cu" + std::to_string(cv->major) + " matching the CUDA runtime.",
            "corpus nccl-tests-6, vllm-7201");
        break;
      }
    }
  }
  // Each engine's own torch pin (its Requires-Dist): no verl needed.
  if (const Component* t = comp(r, "torch"))
    for (const char* engine : {"vllm", "sglang"})
      if (const Component* x = comp(r, engine)) check_engine_torch(r.rows, engine, *x->version, *t->version);
  // verl's extras from its own metadata (Requires-Dist ...; extra == "vllm"); the install-doc
  // facts (CUDA floor, vllm to avoid) from compat.yaml (verl-project/verl docs/start/install.rst).
  if (const Component* v = comp(r, "verl")) check_verl(r, *v->version);
  // Known-bad combinations from the corpus.
  for (const auto& kb : table()["known_bad"]) {
    bool hit = false;
    std::string found;
    if (kb["gpu_model_regex"]) {
      // Every NCCL on the machine counts: a stale system copy is what nccl-tests or a container loads.
      std::vector<std::pair<std::string, std::string>> ncs;
      if (const Component* n = comp(r, "nccl")) ncs.emplace_back(*n->version, n->source);
      for (const auto& sg : in.detected.nccl) ncs.emplace_back(sg.version, sg.where);
      std::regex re(s(kb, "gpu_model_regex"));
      for (const auto& m : r.gpu_models)
        for (const auto& [v, where] : ncs) {
          auto nv = Version::parse(v);
          if (!hit && nv && std::regex_search(m, re) && *nv < core::V(s(kb, "nccl_below"))) {
            hit = true;
            found = m + ", NCCL " + v + " at " + where;
          }
        }
    }
    if (kb["vllm_equals"])
      if (const Component* x = comp(r, "vllm"); x && satisfies(*x->version, "==" + s(kb, "vllm_equals"))) {
        hit = true;
        found = "vllm " + *x->version;
      }
    if (hit) add(r, s(kb, "id"), status_of(kb), found, "", s(kb, "why"), s(kb, "fix"), s(kb, "source"));
  }
  // Several different versions of one component: which one loads depends on paths.
  for (const auto& c : r.components)
    if (!c.others.empty() && c.source != "flag")
      add(r, "multiple-" + c.name, core::Outcome::warn, c.name + " " + c.version.value_or("?") + " at " + c.source,
          "one " + c.name, "Also found: " + core::join(c.others, "; ") + ". The one a job loads depends on "
          "LD_LIBRARY_PATH / the interpreter.",
          "Check the 'NCCL version' / torch.version line of the job log, or remove the stale copy.", "");
  return r;
}

namespace {
// Unknown / not applicable is null in JSON, never "" (docs/OUTPUT.md "JSON").
nlohmann::json or_null(const std::string& v) { return v.empty() ? nlohmann::json(nullptr) : nlohmann::json(v); }
}  // namespace

nlohmann::json to_json(const CompatReport& r) {
  nlohmann::json comps = nlohmann::json::object();
  for (const auto& c : r.components)
    comps[c.name] = {{"version", c.version ? nlohmann::json(*c.version) : nlohmann::json(nullptr)},
                     {"source", c.source.empty() ? nlohmann::json(nullptr) : nlohmann::json(c.source)},
                     {"others", c.others}};
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& x : r.rows)
    rows.push_back({{"check", x.check}, {"status", core::to_string(x.status)}, {"found", x.found}, {"expected", or_null(x.expected)},
                    {"why", or_null(x.why)}, {"fix", or_null(x.fix)}, {"source", or_null(x.source)}});
  return {{"components", comps}, {"gpu_models", r.gpu_models}, {"checks", rows}};
}

}  // namespace ncdx::analyze
