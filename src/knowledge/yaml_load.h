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

// The one loader prologue of every knowledge file: `parse(text, "knowledge/<name>")` on the
// embedded text. A file that is missing or does not parse is our bug, not the user's input (it
// ships inside the binary), so any error becomes internal (70), keeping the parser's file:line.
// Call it once, from a function-local static.
template <class T, class Parse>
core::Result<T> parse_embedded(std::string_view name, Parse parse) {
  auto text = embedded(name);
  if (!text) return core::Status::internal("knowledge file not embedded: " + std::string(name));
  core::Result<T> r = parse(*text, "knowledge/" + std::string(name));
  if (!r.ok()) return core::Status::internal(r.status().message());
  return r;
}

// A table parsed once by parse_embedded; a broken file leaves the rows empty and says why in
// `status` (for tables whose users degrade to "no rows" and a test that checks the status).
template <class Row>
struct EmbeddedTable {
  std::vector<Row> rows;
  core::Status status;
};
template <class Row, class Parse>
EmbeddedTable<Row> load_embedded_table(std::string_view name, Parse parse) {
  EmbeddedTable<Row> out;
  auto rows = parse_embedded<std::vector<Row>>(name, parse);
  if (!rows) out.status = rows.status();
  else out.rows = std::move(*rows);
  return out;
}

}  // namespace ncdx::knowledge
