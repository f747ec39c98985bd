#pragma once
// Readers for the places an NCCL setting can come from, and NCCL's precedence between them
// (NVIDIA/nccl src/misc/param.cc): the process environment wins, then NCCL_CONF_FILE
// (NCCL >= 2.23.4) or else ~/.nccl.conf, then /etc/nccl.conf. NCCL applies file values with
// setenv(name, value, 0), so an earlier source is never overridden by a later one.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyze/env/origins.h"
#include "core/fs.h"
#include "core/result.h"
#include "core/semver.h"

namespace ncdx::analyze {

struct EnvSetting {
  std::string name, value;
  std::string origin;  // "env", "/etc/nccl.conf:3", "run.env:12"
};

// A shell-style env file given with --env-file: `KEY=VALUE`, optional `export ` prefix, single or
// double quotes around the value, `#` comments (whole line, or after whitespace outside quotes),
// blank lines. A line that is none of these is bad input (exit 65) naming file:line.
core::Result<std::vector<EnvSetting>> parse_env_file(std::string_view text, std::string_view file_name);
// The same parse, each assignment handed to `f` as it is read (line: 1-based).
core::Status for_each_env_assignment(std::string_view text, std::string_view file_name,
                                    const std::function<void(std::string name, std::string value, int line)>& f);

// An NCCL config file, read the way NCCL reads it (src/misc/param.cc setEnvFile): each line is
// NAME=VALUE split at the first '=', the value taken verbatim; lines without '=' and '#' lines are
// skipped. Never fails: NCCL itself never rejects such a file.
std::vector<EnvSetting> parse_nccl_conf(std::string_view text, std::string_view file_name);

struct EffectiveEnv {
  std::map<std::string, std::string> env;     // the values NCCL would see
  EnvOrigins origin;                          // where each came from
  std::vector<EnvSetting> shadowed;           // file values hidden by an earlier source
  std::vector<std::string> files_read;        // config files found, in precedence order
};

// Merges the process environment (or an env file) with the NCCL config files found under fs.
// `home` is $HOME for ~/.nccl.conf; nccl selects whether NCCL_CONF_FILE is honoured (>= 2.23.4;
// unknown version: honoured).
EffectiveEnv effective_env(const std::vector<EnvSetting>& base, const core::FileSystem& fs,
                           std::optional<std::string> home, std::optional<core::Version> nccl);
// The same for an env file's text (parse_env_file's rules), read straight into the maps: no
// EnvSetting and no "<file>:<line>" string per line (an env file at the execve limit has ~300 000
// lines, issue #12). home_from_file: ~/.nccl.conf is read from the file's own HOME.
core::Result<EffectiveEnv> effective_env_file(std::string_view text, std::string_view file_name,
                                              const core::FileSystem& fs, bool home_from_file,
                                              std::optional<core::Version> nccl);

}  // namespace ncdx::analyze
