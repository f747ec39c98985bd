#pragma once
// A small, bounded XML reader for the files NCCL reads and writes (NCCL_TOPO_FILE,
// NCCL_TOPO_DUMP_FILE, NCCL_GRAPH_FILE). Those are element/attribute trees with comments and an
// optional <?xml?> declaration; no DTD, namespaces or CDATA is needed, and a DOCTYPE is refused
// (no entity expansion, so no "billion laughs"). Input is untrusted: depth, element count and
// attribute sizes are capped, and every error names the line.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"

namespace ncdx::probe {

struct XmlElement {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attrs;  // in document order, entities decoded
  std::vector<XmlElement> children;
  int line = 0;  // line of the opening '<'

  std::optional<std::string_view> attr(std::string_view key) const;
};

struct XmlLimits {
  int max_depth = 64;
  std::size_t max_elements = 100000;
  std::size_t max_bytes = 16u << 20;
};

// Parses one document with a single root element; errors are bad_input "src:line: what".
core::Result<XmlElement> parse_xml(std::string_view text, std::string_view source_name,
                                   const XmlLimits& limits = {});

}  // namespace ncdx::probe
