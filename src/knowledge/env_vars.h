#pragma once
// The env-var fact tables (data/nccl_env_vars.tsv, data/torch_env_vars.yaml) as typed records,
// parsed once from the embedded files. The TSV's free-text since/until columns are decoded here
// into versions so rules can compare them (data/SOURCES.md says where the columns come from).
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/semver.h"

namespace ncdx::knowledge {

enum class NcclVarKind {
  nccl,             // read by core NCCL (maybe removed / not yet added in a given version)
  nccl_plugin,      // read only by a plugin shipped under NVIDIA/nccl plugins/ (when loaded)
  external_plugin,  // read only by another project's plugin (nccl-rdma-sharp-plugins)
  pytorch_alias,    // not NCCL: an old PyTorch name (see torch_env_vars.yaml)
  docs_only,        // only ever in old docs, never read by source
  fake,             // never read by any NCCL tag
  log_only,         // appears only in a log message
};
const char* to_string(NcclVarKind k);

struct NcclVar {
  std::string name, type, default_value, values, since_text, until_text, replacement, description, source;
  NcclVarKind kind = NcclVarKind::nccl;
  std::optional<core::Version> since;        // first tag that reads it ("<=2.3.5" -> 2.3.5)
  bool since_is_upper_bound = false;         // "<=2.3.5": already in the oldest tag scanned
  std::optional<core::Version> removed;      // first tag without it
  std::optional<core::Version> last;         // last tag that had it
  std::optional<core::Version> deprecated;   // marked deprecated in source (still read)
  bool legacy_alias = false;                 // "deprecated alias (still read ...)"
  int tsv_line = 0;                          // 1-based line in nccl_env_vars.tsv (for citations)

  bool is_int() const;                       // parsed with strtoll through NCCL_PARAM
  bool is_bool() const;                      // an int 0/1 switch
  // Read by NCCL version v? (kind nccl/nccl_plugin, since <= v < removed)
  bool read_by(const core::Version& v) const;
};

struct TorchVar {
  std::string name, type, values, default_value, older_default, meaning, source, deprecated;
  std::optional<core::Version> since;
  std::vector<std::string> aliases;
  std::optional<core::Version> legacy_until;  // aliases were the primary names before this
};

const std::vector<NcclVar>& nccl_vars();
const NcclVar* find_nccl_var(std::string_view name);
const std::vector<TorchVar>& torch_vars();
// Finds by primary name or alias; *is_alias tells which.
const TorchVar* find_torch_var(std::string_view name, bool* is_alias = nullptr);

// Every name either table knows (for "did you mean").
std::vector<std::string> known_env_names();

}  // namespace ncdx::knowledge
