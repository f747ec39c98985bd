#pragma once
// Loads an embedded YAML file; a broken knowledge file is an internal error (it ships with us),
// reported with its name and line.
#include <yaml-cpp/yaml.h>

#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "knowledge/embedded.h"

namespace ncdx::knowledge {

core::Result<YAML::Node> load_embedded_yaml(std::string_view name);

// `text` as a YAML list (what a table file is): malformed YAML or anything but a list is bad
// input, "<source>:<line>: …", naming what the list holds (`rows`, e.g. "findings").
core::Result<YAML::Node> parse_yaml_list(std::string_view text, std::string_view source, std::string_view rows);

// A table parsed once from embedded file `name` by `parse(text, source)`; a file that is missing
// or does not parse leaves the rows empty and says why in `status` (it ships with us: our bug).
template <class Row>
struct EmbeddedTable {
  std::vector<Row> rows;
  core::Status status;
};
template <class Row, class Parse>
EmbeddedTable<Row> load_embedded_table(std::string_view name, Parse parse) {
  EmbeddedTable<Row> out;
  auto text = embedded(name);
  if (!text) {
    out.status = core::Status::internal(std::string(name) + " is not embedded");
    return out;
  }
  core::Result<std::vector<Row>> rows = parse(*text, name);
  if (!rows) out.status = core::Status::internal(rows.status().message());
  else out.rows = std::move(*rows);
  return out;
}

}  // namespace ncdx::knowledge
