#include "analyze/env/origins.h"

namespace ncdx::analyze {

std::string EnvWhere::str() const {
  if (!source) return "";
  return line ? *source + ":" + std::to_string(line) : *source;
}

void EnvOrigins::set(const std::string& name, std::string_view source, std::uint32_t line) {
  by_name_.insert_or_assign(name, Ref{sources_.intern(source), line});
}

void EnvOrigins::set_if_absent(const std::string& name, std::string_view source, std::uint32_t line) {
  if (!by_name_.count(name)) by_name_.emplace(name, Ref{sources_.intern(source), line});
}

EnvWhere EnvOrigins::find(std::string_view name) const {
  auto it = by_name_.find(name);
  if (it == by_name_.end()) return {};
  return {&sources_.at(it->second.source), it->second.line};
}

}  // namespace ncdx::analyze
