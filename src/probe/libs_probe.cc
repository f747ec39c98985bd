#include "probe/libs_probe.h"

#include <fstream>
#include <regex>
#include <set>

#include "core/strings.h"
#include "vendor/nccl_version.h"

namespace ncdx::probe {
namespace {

// Expands one "*" per path component against the rooted tree.
std::vector<std::string> glob(const SysReader& r, std::string_view pattern) {
  std::vector<std::string> out{""};
  for (auto part : core::split(pattern, '/')) {
    if (part.empty()) continue;
    std::vector<std::string> next;
    auto star = part.find('*');
    for (const auto& base : out) {
      if (star == std::string_view::npos) {
        next.push_back(base + "/" + std::string(part));
        continue;
      }
      auto pre = part.substr(0, star), post = part.substr(star + 1);
      for (const auto& e : r.fs().list(base.empty() ? "/" : base))
        if (e.size() >= pre.size() + post.size() && e.starts_with(pre) && e.ends_with(post))
          next.push_back(base + "/" + e);
    }
    out = std::move(next);
  }
  std::vector<std::string> existing;
  for (auto& p : out)
    if (r.fs().exists(p)) existing.push_back(p);
  return existing;
}

bool is_nccl_file(std::string_view name) {
  static const std::regex re(R"(^libnccl\.so(\.\d+)*$)");
  return std::regex_match(name.begin(), name.end(), re);
}

std::optional<std::string> scan_file(const SysReader& r, const std::string& path) {
  if (!r.contained(path)) return std::nullopt;
  std::ifstream in(r.fs().host_path(path), std::ios::binary);
  if (!in) return std::nullopt;
  std::string carry, chunk(1 << 20, '\0');
  std::size_t total = 0;
  while (in && total < (1ULL << 30)) {  // bounded: libnccl is a few hundred MB at most
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    auto got = static_cast<std::size_t>(in.gcount());
    if (!got) break;
    total += got;
    std::string window = carry + chunk.substr(0, got);
    if (auto v = version_from_banner(window)) return v;
    carry = window.substr(window.size() > 64 ? window.size() - 64 : 0);
  }
  return std::nullopt;
}

void add_dir(const SysReader& r, const std::string& dir, const std::string& origin, bool allow_dlopen,
             std::set<std::string>& seen, std::vector<NcclLib>& out) {
  auto names = r.fs().list(dir);
  // Longest name first: report "libnccl.so.2.21.5" rather than the dev symlink "libnccl.so".
  std::sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) {
    return a.size() != b.size() ? a.size() > b.size() : a < b;
  });
  for (const auto& f : names) {
    if (!is_nccl_file(f)) continue;
    NcclLib lib;
    lib.path = dir + "/" + f;
    lib.origin = origin;
    auto real = r.resolve(lib.path);
    if (real != lib.path) lib.real_path = real;
    if (!r.fs().exists(real) || r.fs().is_dir(real)) continue;  // dangling link
    if (!seen.insert(real).second) continue;
    if (allow_dlopen && (lib.version = vendor::nccl_library_version(real))) lib.version_source = "ncclGetVersion";
    else if ((lib.version = version_from_soname(real.substr(real.rfind('/') + 1)))) lib.version_source = "file suffix";
    else if ((lib.version = scan_file(r, real))) lib.version_source = "version string";
    else lib.version_source = "unknown";
    out.push_back(std::move(lib));
  }
}

std::string normalize_pkg(std::string s) {
  s = core::to_lower(s);
  for (auto& c : s)
    if (c == '-' || c == '.') c = '_';
  return s;
}

}  // namespace

std::optional<std::string> version_from_soname(std::string_view file) {
  static const std::regex re(R"(^libnccl\.so\.(\d+\.\d+\.\d+)$)");
  std::match_results<std::string_view::const_iterator> m;
  if (std::regex_match(file.begin(), file.end(), m, re)) return m[1].str();
  return std::nullopt;
}

std::optional<std::string> version_from_banner(std::string_view bytes) {
  static const std::string key = "NCCL version ";
  for (auto pos = bytes.find(key); pos != std::string_view::npos; pos = bytes.find(key, pos + 1)) {
    std::size_t i = pos + key.size(), j = i;
    while (j < bytes.size() && (std::isdigit(static_cast<unsigned char>(bytes[j])) || bytes[j] == '.')) ++j;
    auto v = bytes.substr(i, j - i);
    if (std::count(v.begin(), v.end(), '.') == 2 && std::isdigit(static_cast<unsigned char>(v.back()))) return std::string(v);
  }
  return std::nullopt;
}

LibsScan probe_libs(const SysReader& r, const std::map<std::string, std::string>& env, bool allow_dlopen) {
  LibsScan out;
  std::set<std::string> seen;
  std::vector<std::pair<std::string, std::string>> dirs;  // dir, origin
  for (const char* d : {"/lib", "/lib64", "/usr/lib", "/usr/lib64", "/usr/lib/x86_64-linux-gnu",
                        "/usr/lib/aarch64-linux-gnu", "/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu",
                        "/usr/local/lib", "/usr/local/nccl/lib", "/opt/nccl/lib"})
    dirs.emplace_back(d, "system");
  // ld.so.conf directories: what the dynamic loader's cache covers.
  std::vector<std::string> confs = {"/etc/ld.so.conf"};
  for (const auto& f : r.list("/etc/ld.so.conf.d"))
    if (f.ends_with(".conf")) confs.push_back("/etc/ld.so.conf.d/" + f);
  for (const auto& c : confs)
    if (auto t = r.text(c))
      for (auto line : core::split(*t, '\n')) {
        line = core::trim(line);
        if (line.starts_with("/")) dirs.emplace_back(std::string(line), "system");
      }
  for (const char* pat : {"/usr/local/cuda*/lib", "/usr/local/cuda*/lib64", "/usr/local/cuda*/targets/*/lib"})
    for (auto& d : glob(r, pat)) dirs.emplace_back(d, "cuda");
  if (auto it = env.find("LD_LIBRARY_PATH"); it != env.end())
    for (auto d : core::split(it->second, ':'))
      if (d.starts_with("/")) dirs.emplace_back(std::string(d), "env");
  // Python environments: system, conda, venvs, user installs.
  std::vector<std::string> sites;
  for (const char* pat : {"/usr/lib/python3*/site-packages", "/usr/lib/python3*/dist-packages",
                          "/usr/local/lib/python3*/site-packages", "/usr/local/lib/python3*/dist-packages",
                          "/opt/conda/lib/python3*/site-packages", "/opt/conda/envs/*/lib/python3*/site-packages",
                          "/root/.local/lib/python3*/site-packages", "/home/*/.local/lib/python3*/site-packages",
                          "/opt/*/lib/python3*/site-packages", "/usr/local/cuda*/dist-info"})
    for (auto& s : glob(r, pat)) sites.push_back(s);
  for (const char* var : {"VIRTUAL_ENV", "CONDA_PREFIX"})
    if (auto it = env.find(var); it != env.end() && it->second.starts_with("/"))
      for (auto& s : glob(r, it->second + "/lib/python3*/site-packages")) sites.push_back(s);
  std::sort(sites.begin(), sites.end());
  sites.erase(std::unique(sites.begin(), sites.end()), sites.end());
  for (const auto& s : sites) {
    dirs.emplace_back(s + "/nvidia/nccl/lib", "python");
    dirs.emplace_back(s + "/torch/lib", "torch");
  }
  for (const auto& [d, origin] : dirs) add_dir(r, d, origin, allow_dlopen, seen, out.nccl);

  static const std::set<std::string> wanted = {"torch", "verl", "vllm", "sglang", "ray", "megatron_core",
                                               "deepspeed", "transformer_engine", "flash_attn"};
  for (const auto& s : sites)
    for (const auto& e : r.list(s)) {
      if (!e.ends_with(".dist-info")) continue;
      auto stem = e.substr(0, e.size() - 10);
      auto dash = stem.find('-');
      auto name = normalize_pkg(stem.substr(0, dash));
      if (!wanted.count(name) && !name.starts_with("nvidia_nccl_cu")) continue;
      PyPackage p;
      p.name = name;
      p.site = s;
      p.version = dash == std::string::npos ? "" : stem.substr(dash + 1);
      if (auto md = r.text(s + "/" + e + "/METADATA"))
        for (auto line : core::split(*md, '\n')) {
          if (line.starts_with("Version:")) {
            p.version = std::string(core::trim(line.substr(8)));
            break;
          }
          if (line.empty()) break;  // end of the header block
        }
      out.python.push_back(std::move(p));
    }
  return out;
}

}  // namespace ncdx::probe
