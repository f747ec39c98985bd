#pragma once
// The one gateway through which vendor libraries (NVML, CUDA, NCCL, NVRTC, ibverbs) are loaded.
// Vendor libraries are never linked: we dlopen the versioned soname, allow a path override, and
// keep "absent", "symbol missing", "not supported" and "failed" apart (docs/DEVELOPING.md).
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ncdx::vendor {

enum class LoadState { loaded, absent, symbol_missing };
const char* to_string(LoadState s);

class DynLib {
 public:
  // Tries, in order: the value of env_override (a path) if set, explicit_path if non-empty, then
  // each soname. Keeps the dlerror() text of the last failure.
  static DynLib open(const std::vector<std::string>& sonames, const std::string& explicit_path = {},
                     const char* env_override = nullptr);
  DynLib(DynLib&&) noexcept;
  DynLib& operator=(DynLib&&) noexcept;
  DynLib(const DynLib&) = delete;
  ~DynLib();

  bool loaded() const { return handle_ != nullptr; }
  LoadState state() const { return state_; }
  const std::string& path() const { return path_; }    // what was loaded
  const std::string& error() const { return error_; }  // why not
  // Looks up a symbol; a missing symbol marks the library symbol_missing and returns nullptr.
  void* sym(const char* name);
  template <class F>
  F fn(const char* name) {
    return reinterpret_cast<F>(sym(name));
  }
  // Missing symbols seen so far (for the "symbol missing" finding).
  const std::vector<std::string>& missing() const { return missing_; }

 private:
  DynLib() = default;
  void* handle_ = nullptr;
  LoadState state_ = LoadState::absent;
  std::string path_, error_;
  std::vector<std::string> missing_;
};

// Moves `lib` into a registry that lives until exit and is never destroyed: vendor runtimes must
// stay loaded for the life of the process (NCCL never unloads NVML either) and must not be dlclose'd by static
// destructors while their helper threads may run. The registry stays reachable, so leak checkers
// see no leak. Returns the kept library (its address is stable).
DynLib& keep_loaded(DynLib lib);

}  // namespace ncdx::vendor
