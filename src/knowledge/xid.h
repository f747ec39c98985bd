#pragma once
// The NVIDIA XID table (data/xid.yaml), shared by `ncdx triage` (signature kernel.nvrm-xid
// extracts the code from "NVRM: Xid (PCI:...): <code>, ...") and `ncdx doctor` (kmsg, NVML events).
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/finding.h"
#include "core/result.h"

namespace ncdx::knowledge {

struct XidInfo {
  int code = 0;
  std::string name;     // NVIDIA's short name, e.g. "GPU has fallen off the bus"
  std::string meaning;  // what happened
  core::Severity severity = core::Severity::error;
  std::string klass;    // failure class (docs/OUTPUT.md)
  std::string action;   // what an operator should do
};

// nullptr for a code the table does not know (report it as "unknown XID", never guess).
const XidInfo* xid_info(int code);
// The whole table sorted by code; empty if the embedded file failed to load (see xid_table_status).
std::span<const XidInfo> xid_table();
core::Status xid_table_status();

// Parses xid.yaml text; errors are "<source>:<line>: <what was expected>" (exit 65).
core::Result<std::vector<XidInfo>> parse_xid_yaml(std::string_view text, std::string_view source_name);

}  // namespace ncdx::knowledge
