#include "cli/command.h"

#include <cstdio>

namespace ncdx::cli {

int fail(std::string_view command, const core::Status& s) {
  std::fprintf(stderr, "ncdx %.*s: %s\n", static_cast<int>(command.size()), command.data(), s.message().c_str());
  return core::to_int(s.code());
}

core::Result<std::optional<core::Version>> version_flag(const std::string& flag, const std::string& value) {
  if (value.empty()) return std::optional<core::Version>();
  auto v = core::Version::parse(value);
  if (!v) return core::Status::usage(flag + " expects a version like 2.21.5, got '" + value + "'");
  return std::optional<core::Version>(*v);
}

}  // namespace ncdx::cli
