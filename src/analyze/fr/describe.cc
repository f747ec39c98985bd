#include "analyze/fr/describe.h"

#include <ctime>

#include "core/strings.h"

namespace ncdx::analyze::fr_detail {

std::string shapes_text(const std::optional<std::vector<std::vector<long long>>>& s) {
  if (!s) return "?";
  std::string out = "[";
  for (std::size_t i = 0; i < s->size(); ++i) {
    if (i) out += ", ";
    out += "[";
    for (std::size_t k = 0; k < (*s)[i].size(); ++k) out += (k ? ", " : "") + std::to_string((*s)[i][k]);
    out += "]";
  }
  return out + "]";
}

std::string dtypes_text(const std::optional<std::vector<std::string>>& d) {
  if (!d) return "?";
  return d->empty() ? "-" : core::join(*d, ",");
}

std::string describe_entry(const FrEntry& e) {
  std::string s;
  s += "record_id " + (e.record_id ? std::to_string(*e.record_id) : std::string("?"));
  if (e.collective_seq_id) s += ", seq " + std::to_string(*e.collective_seq_id);
  if (e.is_p2p.value_or(false) && e.p2p_seq_id) s += ", p2p seq " + std::to_string(*e.p2p_seq_id);
  s += ", " + e.profiling_name.value_or("?");
  s += ", state " + e.state.value_or("?");
  s += ", input " + shapes_text(e.input_sizes) + " " + dtypes_text(e.input_dtypes);
  s += ", output " + shapes_text(e.output_sizes) + " " + dtypes_text(e.output_dtypes);
  return s;
}

std::string group_label(const std::string& name, const std::optional<std::string>& desc) {
  return desc && !desc->empty() ? *desc + " (pg " + name + ")" : "pg " + name;
}

std::string format_time_ns(long long ns) {
  std::time_t secs = static_cast<std::time_t>(ns / 1000000000LL);
  std::tm tm{};
  if (!gmtime_r(&secs, &tm)) return std::to_string(ns);
  char buf[40];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  char ms[8];
  std::snprintf(ms, sizeof ms, ".%03lldZ", (ns / 1000000LL) % 1000);
  return std::string(buf) + ms;
}

}  // namespace ncdx::analyze::fr_detail
