#include "analyze/config/env_file.h"

#include <algorithm>
#include <cctype>
#include <functional>

#include "core/strings.h"

namespace ncdx::analyze {
namespace {

bool valid_name(std::string_view n) {
  if (n.empty() || std::isdigit(static_cast<unsigned char>(n[0]))) return false;
  for (char c : n)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

std::string where(std::string_view file, int line) { return std::string(file) + ":" + std::to_string(line); }

// Parses the value part of `KEY=value`: quotes, escapes inside double quotes, trailing comment.
core::Result<std::string> parse_value(std::string_view v, std::string_view file, int line) {
  std::string out;
  std::size_t i = 0;
  while (i < v.size()) {
    char c = v[i];
    if (c == '\'') {
      auto end = v.find('\'', i + 1);
      if (end == std::string_view::npos)
        return core::Status::bad_input(where(file, line) + ": unterminated single quote (expected KEY='value')");
      out.append(v.substr(i + 1, end - i - 1));
      i = end + 1;
    } else if (c == '"') {
      ++i;
      bool closed = false;
      while (i < v.size()) {
        if (v[i] == '\\' && i + 1 < v.size() && (v[i + 1] == '"' || v[i + 1] == '\\' || v[i + 1] == '$')) {
          out.push_back(v[i + 1]);
          i += 2;
        } else if (v[i] == '"') {
          closed = true;
          ++i;
          break;
        } else {
          out.push_back(v[i++]);
        }
      }
      if (!closed)
        return core::Status::bad_input(where(file, line) + ": unterminated double quote (expected KEY=\"value\")");
    } else if (c == ' ' || c == '\t') {
      // Whitespace outside quotes ends the value; only a comment may follow.
      auto rest = core::trim(v.substr(i));
      if (!rest.empty() && rest[0] != '#')
        return core::Status::bad_input(where(file, line) + ": unquoted space in value (expected KEY=value, quote values with spaces)");
      break;
    } else {
      out.push_back(c);
      ++i;
    }
  }
  return out;
}

}  // namespace

// The most environment any Linux process can receive: execve(2) refuses argv+envp larger than 3/4
// of the default 8 MiB stack limit (_STK_LIM) however high RLIMIT_STACK is (fs/exec.c
// bprm_stack_limits(), Linux >= 4.13; each string counts with its NUL and its 8-byte pointer).
// An env file past it is not an environment a job can have, so its lint would be about nothing:
// refused as bad input instead of building an unbounded table (issue #12, 500 k lines took 1.15 GB).
constexpr std::size_t kMaxProcessEnvBytes = (std::size_t{8} << 20) / 4 * 3;  // 6 MiB

core::Status for_each_env_assignment(std::string_view text, std::string_view file_name,
                                    const std::function<void(std::string name, std::string value, int line)>& f) {
  std::size_t env_bytes = 0;
  int line_no = 0;
  for (auto raw : core::split(text, '\n')) {
    ++line_no;
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
    auto line = core::trim(raw);
    if (line.empty() || line[0] == '#') continue;
    if (line.substr(0, 7) == "export " || line.substr(0, 7) == "export\t") line = core::trim(line.substr(7));
    auto eq = line.find('=');
    if (eq == std::string_view::npos)
      return core::Status::bad_input(where(file_name, line_no) + ": expected KEY=VALUE");
    auto key = line.substr(0, eq);
    if (!valid_name(key))
      return core::Status::bad_input(where(file_name, line_no) + ": '" + core::sanitize_utf8(key) +
                                     "' is not a variable name (expected KEY=VALUE, KEY of letters, digits, _)");
    auto value = parse_value(line.substr(eq + 1), file_name, line_no);
    if (!value) return value.status();
    env_bytes += key.size() + 1 + value->size() + 1 + sizeof(char*);
    if (env_bytes > kMaxProcessEnvBytes)
      return core::Status::bad_input(where(file_name, line_no) + ": the assignments so far take more than 6 MiB, more than a Linux process "
                                     "environment can hold (execve limit, fs/exec.c): not an environment file");
    f(std::string(key), std::move(*value), line_no);
  }
  return core::Status::ok();
}

core::Result<std::vector<EnvSetting>> parse_env_file(std::string_view text, std::string_view file_name) {
  std::vector<EnvSetting> out;
  // At most one setting a line: no vector doubling past what the file holds.
  out.reserve(static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1);
  core::Status st = for_each_env_assignment(text, file_name, [&](std::string name, std::string value, int line) {
    out.push_back({std::move(name), std::move(value), where(file_name, line)});
  });
  if (!st) return st;
  return out;
}

std::vector<EnvSetting> parse_nccl_conf(std::string_view text, std::string_view file_name) {
  std::vector<EnvSetting> out;
  int line_no = 0;
  for (auto line : core::split(text, '\n')) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.empty() && line[0] == '#') continue;
    auto eq = line.find('=');
    if (eq == std::string_view::npos) continue;  // NCCL skips lines without '='
    out.push_back({std::string(line.substr(0, eq)), std::string(line.substr(eq + 1)), where(file_name, line_no)});
  }
  return out;
}

namespace {

// NCCL's config files over the job's own settings (NVIDIA/nccl src/misc/param.cc): NCCL_CONF_FILE (NCCL >=
// 2.23.4) or else ~/.nccl.conf, then /etc/nccl.conf, each value set with setenv(name, value, 0).
void apply_conf_files(EffectiveEnv& e, const core::FileSystem& fs, const std::optional<std::string>& home,
                      const std::optional<core::Version>& nccl) {
  auto apply = [&](const EnvSetting& s) {
    if (auto it = e.env.find(s.name); it != e.env.end()) {  // setenv(name, value, 0): an earlier source wins
      if (it->second != s.value || e.origin.get(s.name) != s.origin) e.shadowed.push_back(s);
      return;
    }
    e.env[s.name] = s.value;
    e.origin.set(s.name, s.origin);
  };
  auto read_conf = [&](const std::string& path) {
    auto text = fs.read(path, 1 << 20);
    if (!text) return;
    e.files_read.push_back(path);
    for (const auto& s : parse_nccl_conf(*text, path)) apply(s);
  };
  bool conf_file_honoured = !nccl || *nccl >= core::V("2.23.4");
  auto cf = e.env.find("NCCL_CONF_FILE");
  if (cf != e.env.end() && !cf->second.empty() && conf_file_honoured) {
    read_conf(cf->second);
  } else if (home && !home->empty()) {
    read_conf(*home + "/.nccl.conf");
  }
  read_conf("/etc/nccl.conf");
}

}  // namespace

EffectiveEnv effective_env(const std::vector<EnvSetting>& base, const core::FileSystem& fs,
                           std::optional<std::string> home, std::optional<core::Version> nccl) {
  EffectiveEnv e;
  // Within one source a later line wins (shell semantics of an env file).
  for (const auto& s : base) {
    e.env[s.name] = s.value;
    e.origin.set(s.name, s.origin);
  }
  apply_conf_files(e, fs, home, nccl);
  return e;
}

core::Result<EffectiveEnv> effective_env_file(std::string_view text, std::string_view file_name,
                                              const core::FileSystem& fs, bool home_from_file,
                                              std::optional<core::Version> nccl) {
  EffectiveEnv e;
  const std::string file(file_name);
  core::Status st = for_each_env_assignment(text, file_name, [&](std::string name, std::string value, int line) {
    e.origin.set(name, file, static_cast<std::uint32_t>(line));
    e.env.insert_or_assign(std::move(name), std::move(value));  // a later line wins
  });
  if (!st) return st;
  std::optional<std::string> home;
  if (auto it = e.env.find("HOME"); home_from_file && it != e.env.end()) home = it->second;
  apply_conf_files(e, fs, home, nccl);
  return e;
}

}  // namespace ncdx::analyze
