// Bundles (`ncdx gather`) and snapshots (`--save`): writing them, and reading them back for
// `--from`. Both are untrusted input on the way back in: bounded reads, every JSON parse error
// reported with file and byte offset (exit 65).
#include <algorithm>
#include <system_error>

#include "core/redact.h"
#include "core/safe_write.h"
#include "core/json.h"
#include "core/version.h"
#include "probe/machine_probe.h"

namespace ncdx::probe {
namespace fs = std::filesystem;

namespace {

core::Result<std::string> read_host_file(const fs::path& p, std::size_t max_bytes) {
  core::FileSystem hostfs("/");
  std::error_code ec;
  auto r = hostfs.read(fs::absolute(p, ec).string(), max_bytes + 1);
  if (!r) return core::Status::not_found(p.string() + ": cannot read");
  if (r->size() > max_bytes) return core::Status::bad_input(p.string() + ": larger than " + std::to_string(max_bytes) + " bytes");
  return r;
}

core::Result<nlohmann::json> read_json(const fs::path& p) {
  auto t = read_host_file(p, 256u << 20);
  if (!t) return t.status();
  return core::parse_json(*t, p.string());
}

}  // namespace

core::Result<Inventory> load_from_checked(const fs::path& path, bool quick);

// A snapshot is untrusted: a field of the wrong JSON type anywhere (a number where a string
// belongs, say) is bad input naming the file, never an internal error.
core::Result<Inventory> load_from(const fs::path& path, bool quick) {
  try {
    return load_from_checked(path, quick);
  } catch (const nlohmann::json::exception& e) {
    return core::Status::bad_input(path.string() + ": not an ncdx snapshot (" + e.what() + ")");
  }
}

core::Result<Inventory> load_from_checked(const fs::path& path, bool quick) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return core::Status::not_found(path.string() + ": no such file or directory");
  if (!fs::is_directory(path, ec)) {
    auto j = read_json(path);
    if (!j) return j.status();
    if (!j->is_object()) return core::Status::bad_input(path.string() + ": expected a JSON object (an ncdx snapshot)");
    auto schema = j->value("schema", std::string());
    if (schema != "ncdx.snapshot/1" && schema != "ncdx.doctor/1")
      return core::Status::bad_input(path.string() + ": schema '" + schema + "' is not ncdx.snapshot/1 or ncdx.doctor/1");
    if (!j->contains("inventory")) return core::Status::bad_input(path.string() + ": no \"inventory\" object");
    auto inv = inventory_from_json((*j)["inventory"], path.string());
    if (inv) inv->origin = "snapshot:" + path.string();
    return inv;
  }
  fs::path meta = path / "ncdx";
  if (!fs::exists(meta / "manifest.json", ec))
    return core::Status::bad_input(path.string() + ": not an ncdx bundle (no ncdx/manifest.json)");
  auto manifest = read_json(meta / "manifest.json");
  if (!manifest) return manifest.status();
  if (!manifest->is_object() || manifest->value("schema", std::string()) != "ncdx.bundle/1")
    return core::Status::bad_input((meta / "manifest.json").string() + ": schema is not ncdx.bundle/1");
  Captured cap;
  if (fs::exists(meta / "nvml.json", ec)) {
    auto j = read_json(meta / "nvml.json");
    if (!j) return j.status();
    auto n = nvml_from_json(*j, (meta / "nvml.json").string());
    if (!n) return n.status();
    cap.nvml = std::move(*n);
  }
  if (fs::exists(meta / "cuda.json", ec)) {
    auto j = read_json(meta / "cuda.json");
    if (!j) return j.status();
    auto c = cuda_from_json(*j, (meta / "cuda.json").string());
    if (!c) return c.status();
    cap.cuda = std::move(*c);
  }
  if (fs::exists(meta / "libs.json", ec)) {
    auto j = read_json(meta / "libs.json");
    if (!j) return j.status();
    std::string src = (meta / "libs.json").string();
    if (!j->is_object() || !j->contains("nccl")) return core::Status::bad_input(src + ": expected {\"nccl\": [...], \"python\": [...]}");
    auto l = nccl_libs_from_json((*j)["nccl"], src);
    if (!l) return l.status();
    cap.nccl = std::move(*l);
    try {
      cap.python = std::vector<PyPackage>{};
      for (const auto& p : j->value("python", nlohmann::json::array())) {
        PyPackage pkg;
        pkg.name = p.at("name").get<std::string>();
        pkg.version = p.at("version").get<std::string>();
        pkg.site = p.value("site", std::string());
        cap.python->push_back(std::move(pkg));
      }
    } catch (const nlohmann::json::exception& e) {
      return core::Status::bad_input(src + ": bad python package entry (" + e.what() + ")");
    }
  }
  if (fs::exists(meta / "kmsg.txt", ec)) {
    auto t = read_host_file(meta / "kmsg.txt", 64u << 20);
    if (!t) return t.status();
    cap.kmsg = std::move(*t);
  }
  if (fs::exists(meta / "env.json", ec)) {
    auto j = read_json(meta / "env.json");
    if (!j) return j.status();
    if (!j->is_object()) return core::Status::bad_input((meta / "env.json").string() + ": expected an object of NAME: value");
    std::map<std::string, std::string> env;
    for (auto& [k, v] : j->items())
      if (v.is_string()) env[k] = v.get<std::string>();
    cap.env = std::move(env);
  }
  if (fs::exists(meta / "live.json", ec)) {
    auto j = read_json(meta / "live.json");
    if (!j) return j.status();
    if (j->is_object() && (*j)["shm_free_bytes"].is_number_unsigned()) cap.shm_free = (*j)["shm_free_bytes"].get<std::uint64_t>();
  }
  core::FileSystem rooted(path);
  ProbeOptions opt;
  opt.quick = quick;
  auto inv = probe_machine(rooted, opt, cap);
  inv.origin = "bundle:" + path.string();
  return inv;
}

core::Status write_bundle(const fs::path& dir, const core::FileSystem& src, bool quick, bool force) {
  // Every byte goes through one directory handle (core/safe_write.h): nothing is created outside
  // DIR, whatever the traced links say.
  core::SafeDirOptions so;
  so.force = force;
  so.what = "bundle";
  auto out = core::SafeDir::open(dir, so);
  if (!out) return out.status().with_context("ncdx gather");
  ReadTrace trace;
  std::string kmsg;
  ProbeOptions opt;
  opt.quick = quick;
  opt.trace = &trace;
  opt.kmsg_raw = &kmsg;
  Inventory inv = probe_machine(src, opt);
  if (auto s = out->mkdirs("ncdx"); !s) return s;
  auto rel = [](const std::string& machine) { return machine.substr(1); };
  // Links first (shortest first), each over a real directory at its target, so files written
  // later through a linked path land where the link points, as on the machine. A link is
  // replayed only when its target, resolved by the kernel inside the bundle, stays inside the
  // bundle; every link (replayed or not) is also kept as data in ncdx/links.json.
  std::vector<std::pair<std::string, std::string>> links(trace.links.begin(), trace.links.end());
  std::sort(links.begin(), links.end(), [](auto& a, auto& b) { return a.first.size() < b.first.size(); });
  nlohmann::json link_data = nlohmann::json::array();
  std::size_t refused_links = 0;
  for (const auto& [link, target] : links) {
    bool replayed = false;
    if (!target.starts_with("/") && !out->exists(rel(link))) {
      auto r = out->symlink_beneath(rel(link), target);
      if (!r) return r.status();
      replayed = *r;
    }
    if (!replayed) ++refused_links;
    link_data.push_back({{"link", link}, {"target", target}, {"replayed", replayed}});
  }
  for (const auto& [d, entries] : trace.dirs) (void)out->mkdirs(rel(d), true);
  int files = 0;
  for (const auto& f : trace.files) {
    if (f == "/dev/kmsg") continue;
    auto content = src.read(f, 1u << 20);
    if (!content) continue;
    // procfs text (cmdline, environ-like files) can carry credentials: redacted like the env.
    if (f.starts_with("/proc/")) *content = core::redact_text(*content);
    if (out->write(rel(f), *content, true)) ++files;
  }
  // Listed entries nothing was read from (e.g. /sys/kernel/iommu_groups/N, counted only) are
  // recreated as empty directories so the listing replays.
  for (const auto& [d, entries] : trace.dirs)
    for (const auto& e : entries)
      if (!out->exists(rel(d) + "/" + e)) (void)out->mkdirs(rel(d) + "/" + e, true);
  nlohmann::json manifest = {{"schema", "ncdx.bundle/1"},
                             {"tool_version", core::kVersion},
                             {"host", inv.os.hostname ? nlohmann::json(*inv.os.hostname) : nlohmann::json(nullptr)},
                             {"source_root", src.root().string()},
                             {"files", files},
                             {"links", links.size()},
                             {"links_not_replayed", refused_links},
                             {"note", "sysfs/procfs subset read by ncdx probes; env redacted"}};
  nlohmann::json libs = {{"nccl", nccl_libs_to_json(inv.nccl_libs)}, {"python", nlohmann::json::array()}};
  for (const auto& p : inv.python) libs["python"].push_back({{"name", p.name}, {"version", p.version}, {"site", p.site}});
  nlohmann::json live = {{"shm_free_bytes", inv.os.shm_free_bytes ? nlohmann::json(*inv.os.shm_free_bytes) : nlohmann::json(nullptr)}};
  for (auto [name, body] : std::vector<std::pair<std::string, std::string>>{
           {"manifest.json", core::dump_json(manifest)},
           {"nvml.json", core::dump_json(to_json(inv.nvml))},
           {"cuda.json", core::dump_json(to_json(inv.cuda))},
           {"libs.json", core::dump_json(libs)},
           {"env.json", core::dump_json(nlohmann::json(inv.env))},
           {"live.json", core::dump_json(live)},
           {"links.json", core::dump_json(link_data)},
           {"kmsg.txt", core::redact_text(kmsg)}}) {
    if (auto s = out->write("ncdx/" + name, body); !s) return s;
  }
  return {};
}

}  // namespace ncdx::probe
