#pragma once
// Internal to the FR analysis: short texts for entries, shapes and ranks in findings/evidence.
#include <optional>
#include <string>
#include <vector>

#include "analyze/fr/reader.h"

namespace ncdx::analyze::fr_detail {

std::string shapes_text(const std::optional<std::vector<std::vector<long long>>>& s);
std::string dtypes_text(const std::optional<std::vector<std::string>>& d);
// "record_id 116, seq 17, nccl:all_reduce, state started, input [[1024, 273]] Float, output …"
std::string describe_entry(const FrEntry& e);
// "default_pg (pg 0)" or "pg 3"
std::string group_label(const std::string& name, const std::optional<std::string>& desc);
// UTC "2024-08-27T17:20:39.936Z" from nanoseconds since the epoch.
std::string format_time_ns(long long ns);

}  // namespace ncdx::analyze::fr_detail
