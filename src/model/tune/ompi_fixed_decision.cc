#include "model/tune/ompi_fixed_decision.h"

#include <vector>

#include "core/strings.h"
#include "model/tune/ompi_rules.h"

namespace ncdx::model::tune {

namespace {

struct Row {
  measure::Collective coll;
  long long comm_below, bytes_below;  // 0 = no bound
  int id;
};

// The table, read once; a malformed row is a build defect (the file is compiled in), so it ends the
// table there rather than guessing (the unit tests read its last rows).
const std::vector<Row>& rows() {
  static const std::vector<Row> table = [] {
    std::vector<Row> out;
    auto rows = ompi_table_rows("ompi_fixed_decision.tsv");
    if (!rows) return out;
    for (const auto& r : *rows) {
      const auto& f = r.fields;
      if (f.size() != 5) break;
      auto coll = measure::parse_collective(f[0]);
      auto comm = core::parse_int(f[2]), bytes = core::parse_int(f[3]), id = core::parse_int(f[4]);
      if (!coll || f[1] != "1" || !comm || !bytes || !id) break;
      out.push_back({*coll, *comm, *bytes, static_cast<int>(*id)});
    }
    return out;
  }();
  return table;
}

}  // namespace

std::optional<int> ompi_fixed_decision(measure::Collective c, int nranks, std::size_t bytes) {
  for (const auto& r : rows())
    if (r.coll == c && (r.comm_below == 0 || nranks < r.comm_below) &&
        (r.bytes_below == 0 || static_cast<long long>(bytes) < r.bytes_below))
      return r.id;
  return std::nullopt;
}

bool ompi_fixed_decision_applies(const std::string& version) {
  auto parts = core::split(version, '.');
  if (parts.size() < 2) return false;
  auto major = core::parse_int(parts[0]), minor = core::parse_int(parts[1]);
  if (!major || !minor) return false;
  return (*major == 4 && *minor >= 1) || (*major == 5 && *minor == 0);
}

}  // namespace ncdx::model::tune
