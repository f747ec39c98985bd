#include "vendor/dynlib.h"

#include <cstdlib>
#include <deque>
#include <mutex>
#include <dlfcn.h>

namespace ncdx::vendor {

const char* to_string(LoadState s) {
  switch (s) {
    case LoadState::loaded: return "loaded";
    case LoadState::absent: return "absent";
    case LoadState::symbol_missing: return "symbol missing";
  }
  return "absent";
}

DynLib DynLib::open(const std::vector<std::string>& sonames, const std::string& explicit_path,
                    const char* env_override) {
  DynLib lib;
  std::vector<std::string> tries;
  if (env_override)
    if (const char* p = std::getenv(env_override); p && *p) tries.emplace_back(p);
  if (!explicit_path.empty()) tries.push_back(explicit_path);
  tries.insert(tries.end(), sonames.begin(), sonames.end());
  for (const auto& t : tries) {
    // RTLD_LOCAL: a vendor library's symbols must not leak into the next one we load.
    void* h = dlopen(t.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (h) {
      lib.handle_ = h;
      lib.state_ = LoadState::loaded;
      lib.path_ = t;
      lib.error_.clear();
      return lib;
    }
    const char* e = dlerror();
    lib.error_ = e ? e : ("cannot load " + t);
  }
  return lib;
}

DynLib::DynLib(DynLib&& o) noexcept { *this = std::move(o); }

DynLib& DynLib::operator=(DynLib&& o) noexcept {
  if (this != &o) {
    if (handle_) dlclose(handle_);
    handle_ = o.handle_;
    state_ = o.state_;
    path_ = std::move(o.path_);
    error_ = std::move(o.error_);
    missing_ = std::move(o.missing_);
    o.handle_ = nullptr;
  }
  return *this;
}

DynLib::~DynLib() {
  if (handle_) dlclose(handle_);
}

void* DynLib::sym(const char* name) {
  if (!handle_) return nullptr;
  dlerror();
  void* p = dlsym(handle_, name);
  if (!p) {
    missing_.emplace_back(name);
    state_ = LoadState::symbol_missing;
  }
  return p;
}

DynLib& keep_loaded(DynLib lib) {
  static std::mutex mu;
  static auto* registry = new std::deque<DynLib>;  // never destroyed: no dlclose at exit
  std::lock_guard lock(mu);
  registry->push_back(std::move(lib));
  return registry->back();
}

}  // namespace ncdx::vendor
