#include "probe/package_versions.h"

#include <regex>

#include "core/strings.h"

namespace ncdx::probe {
namespace {

std::string normalise(std::string_view name) {
  std::string s = core::to_lower(name);
  for (char& c : s) if (c == '_' || c == '.') c = '-';
  return s;
}

// Library directories searched for libcudart / libnccl (Debian/Ubuntu multiarch, RHEL, CUDA toolkit).
std::vector<std::string> lib_dirs(const core::FileSystem& fs) {
  std::vector<std::string> d = {"/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib",
                                "/usr/local/lib", "/usr/local/cuda/lib64", "/usr/local/cuda/targets/x86_64-linux/lib",
                                "/usr/local/cuda/targets/sbsa-linux/lib", "/usr/local/nccl/lib", "/opt/nccl/lib"};
  for (const auto& e : fs.list("/usr/local"))
    if (e.rfind("cuda-", 0) == 0) d.push_back("/usr/local/" + e + "/lib64");
  return d;
}

// "libnccl.so.2.21.5" -> "2.21.5"; a bare "libnccl.so.2" says only the major.
std::optional<std::string> lib_version(const std::string& file, const std::string& stem) {
  if (file.rfind(stem, 0) != 0) return std::nullopt;
  std::string rest = file.substr(stem.size());
  static const std::regex full(R"(^(\d+\.\d+(?:\.\d+)?)$)");
  std::smatch m;
  if (std::regex_match(rest, m, full) && std::count(rest.begin(), rest.end(), '.') >= 1) return m[1].str();
  return std::nullopt;
}

void scan_libs(const core::FileSystem& fs, const std::string& dir, StackVersions& out) {
  for (const auto& f : fs.list(dir)) {
    if (auto v = lib_version(f, "libnccl.so.")) out.nccl.push_back({*v, dir + "/" + f});
    if (auto v = lib_version(f, "libcudart.so.")) out.cuda_runtime.push_back({*v, dir + "/" + f});
  }
}

std::vector<std::string> site_dirs(const core::FileSystem& fs, const std::vector<std::string>& prefixes) {
  std::vector<std::string> roots = {"/usr/lib", "/usr/local/lib", "/opt/conda/lib"};
  for (const auto& p : prefixes) roots.push_back(p + "/lib");
  std::vector<std::string> out;
  for (const auto& r : roots)
    for (const auto& e : fs.list(r)) {
      if (e.rfind("python3", 0) != 0) continue;
      for (const char* sub : {"/site-packages", "/dist-packages"}) {
        std::string d = r + "/" + e + sub;
        if (fs.is_dir(d)) out.push_back(d);
      }
    }
  return out;
}

}  // namespace

std::optional<std::string> parse_driver_version(std::string_view text) {
  static const std::regex re(R"(Kernel Module(?:\s+for\s+\S+)?\s+(\d+\.\d+(?:\.\d+)?))");
  std::string s(text.substr(0, 4096));
  std::smatch m;
  if (std::regex_search(s, m, re)) return m[1].str();
  return std::nullopt;
}

PythonPackage parse_metadata(std::string_view text, std::string_view where) {
  PythonPackage p;
  p.where = std::string(where);
  // Extras on the name are allowed: torch >= 2.11 pins `cuda-toolkit[cudart,...]==13.0.2`.
  static const std::regex pin(R"(^([A-Za-z0-9_.\-]+)\s*(?:\[[^\]]*\])?\s*\(?\s*==\s*([A-Za-z0-9_.+\-]+)\s*\)?\s*(;.*)?$)");
  for (auto line : core::split(text, '\n')) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) break;  // headers end at the first blank line; the body is the README
    if (line.rfind("Name:", 0) == 0) p.name = normalise(core::trim(line.substr(5)));
    else if (line.rfind("Version:", 0) == 0) p.version = std::string(core::trim(line.substr(8)));
    else if (line.rfind("Requires-Dist:", 0) == 0) {
      std::string req(core::trim(line.substr(14)));
      std::smatch m;
      if (std::regex_match(req, m, pin)) p.pins[normalise(m[1].str())] = m[2].str();
    }
  }
  return p;
}

StackVersions detect_stack(const core::FileSystem& fs, const std::vector<std::string>& extra_prefixes) {
  StackVersions out;
  if (auto t = fs.read("/proc/driver/nvidia/version", 64 << 10))
    if (auto v = parse_driver_version(*t)) out.driver.push_back({*v, "/proc/driver/nvidia/version"});
  for (const auto& g : fs.list("/proc/driver/nvidia/gpus")) {
    auto info = fs.read("/proc/driver/nvidia/gpus/" + g + "/information", 64 << 10);
    if (!info) continue;
    for (auto line : core::split(*info, '\n'))
      if (line.rfind("Model:", 0) == 0) out.gpu_models.emplace_back(core::trim(line.substr(6)));
  }
  for (const auto& d : lib_dirs(fs)) scan_libs(fs, d, out);
  // CUDA toolkit's own record (11.1+: version.json; older: version.txt "CUDA Version 10.2.89").
  if (auto j = fs.read("/usr/local/cuda/version.json", 1 << 20)) {
    static const std::regex re(R"re("cuda"\s*:\s*\{[^}]*"version"\s*:\s*"([0-9.]+)")re");
    std::smatch m;
    std::string s = *j;
    if (std::regex_search(s, m, re)) out.cuda_runtime.push_back({m[1].str(), "/usr/local/cuda/version.json"});
  }
  out.site_dirs = site_dirs(fs, extra_prefixes);
  for (const auto& site : out.site_dirs) {
    for (const auto& e : fs.list(site)) {
      if (e.size() < 10 || e.substr(e.size() - 10) != ".dist-info") continue;
      std::string dir = site + "/" + e;
      auto meta = fs.read(dir + "/METADATA", 4 << 20);
      if (!meta) continue;
      auto p = parse_metadata(*meta, dir);
      if (p.name.empty() || p.version.empty()) continue;
      if (p.name.rfind("nvidia-nccl-cu", 0) == 0) out.nccl.push_back({p.version, dir});
      if (p.name.rfind("nvidia-cuda-runtime-cu", 0) == 0) out.cuda_runtime.push_back({p.version, dir});
      out.packages.push_back(std::move(p));
    }
  }
  return out;
}

}  // namespace ncdx::probe
