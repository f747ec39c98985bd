#pragma once
// Dotted version numbers ("2.21.5", "2.21.5+cuda12.4", "v2.19.3-1", "2.7.1+cu126", "0.8.0.dev",
// "570.124.06") with numeric comparison: NCCL, PyTorch, CUDA and driver rules are all
// version-gated, and string comparison gets "2.9" < "2.10" wrong.
#include <compare>
#include <optional>
#include <string>
#include <string_view>

namespace ncdx::core {

struct Version {
  int major = 0, minor = 0, patch = 0;
  int parts = 0;         // how many numeric parts were given (1..3): "2.24" has 2
  std::string suffix;    // whatever followed the numbers ("+cuda12.4", ".dev", "-1")

  // Accepts an optional leading 'v', 1-3 numeric parts, then any suffix. nullopt for garbage.
  static std::optional<Version> parse(std::string_view s);
  // "2.21.5" (always three parts, suffix dropped).
  std::string str() const;
  // Ordering ignores the suffix; a missing part counts as 0 ("2.24" == "2.24.0").
  friend auto operator<=>(const Version& a, const Version& b) {
    if (auto c = a.major <=> b.major; c != 0) return c;
    if (auto c = a.minor <=> b.minor; c != 0) return c;
    return a.patch <=> b.patch;
  }
  friend bool operator==(const Version& a, const Version& b) {
    return a.major == b.major && a.minor == b.minor && a.patch == b.patch;
  }
};

// Convenience for tables: Version::parse that must succeed (a literal in our own code/data).
Version V(std::string_view s);

// An NCCL version as printed, made canonical. NCCL 2.9 changed NCCL_VERSION_CODE from
// major*1000+minor*100+patch to major*10000+minor*100+patch; PyTorch <= 1.10 still decodes it the
// old way and prints 2.10.3 (code 21003) as "21.0.3". Such a version (major >= 20) is re-decoded;
// anything else is returned as given.
std::string canonical_nccl_version(std::string_view printed);

}  // namespace ncdx::core
