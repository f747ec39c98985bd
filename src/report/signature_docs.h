#pragma once
// Markdown renderings of the knowledge tables for `ncdx docs signatures` / `ncdx docs xid`; the
// checked-in docs/SIGNATURES.md is this output (a CTest fails when it is stale).
#include <string>

#include "knowledge/signatures.h"

namespace ncdx::report {

std::string signatures_markdown(const knowledge::SignatureSet& set);
std::string xid_markdown();

}  // namespace ncdx::report
