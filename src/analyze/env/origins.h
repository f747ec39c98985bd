#pragma once
// Where each variable of a linted environment was set ("env", "run.env:12", "/etc/nccl.conf:3"),
// kept as a source and a line rather than one "<file>:<line>" string per variable: an env file at
// the 6 MiB execve limit sets ~300 000 names, and with a real path each such string cost ~130
// bytes on the heap — more than all the rest of the lint (issue #12).
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "core/string_pool.h"

namespace ncdx::analyze {

struct EnvWhere {
  const std::string* source = nullptr;  // nullptr: not known
  std::uint32_t line = 0;               // 0: the source has no lines ("env")
  std::string str() const;              // "run.env:12", "env", "" when not known
};

class EnvOrigins {
 public:
  // `source` alone when line is 0.
  void set(const std::string& name, std::string_view source, std::uint32_t line = 0);
  // Keeps an earlier entry (NCCL's setenv(name, value, 0)).
  void set_if_absent(const std::string& name, std::string_view source, std::uint32_t line = 0);
  EnvWhere find(std::string_view name) const;
  std::string get(std::string_view name) const { return find(name).str(); }

 private:
  struct Ref {
    std::uint32_t source, line;
  };
  std::map<std::string, Ref, std::less<>> by_name_;
  core::StringPool sources_;  // EnvWhere points into it
};

}  // namespace ncdx::analyze
