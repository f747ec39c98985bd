#pragma once
// Parses the text of signatures.yaml into Signature records, checking the schema (required keys,
// known classes, severities and roles, priority range, no unknown keys) and reporting the first
// problem as "<source>:<line>: <what was expected>". Pattern compilation happens in SignatureSet.
#include <string_view>
#include <vector>

#include "core/result.h"
#include "knowledge/signatures.h"

namespace ncdx::knowledge {

struct ParsedSignature {
  Signature sig;
  int line = 0;                       // 1-based line of the entry in the source
  std::vector<int> pattern_lines;     // 1-based line of each pattern
};

core::Result<std::vector<ParsedSignature>> parse_signatures_yaml(std::string_view text,
                                                                 std::string_view source_name);

}  // namespace ncdx::knowledge
