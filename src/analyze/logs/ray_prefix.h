#pragma once
// Ray's worker prefixes "(WorkerDict pid=835, ip=172.26.143.83) ", its own processes'
// "(raylet, ip=10.0.0.1) ", "(autoscaler +1m2s) ", and vLLM's "(VllmWorker rank=3 pid=1090) ",
// "(VllmWorker TP3 pid=1090) ". Used by parse_prefix().
#include <optional>
#include <string_view>

#include "analyze/logs/text_scan.h"

namespace ncdx::analyze {

struct RayPrefix {
  std::optional<int> pid, rank;  // rank: "rank=N", or vLLM's tensor-parallel "TPN" alone
  std::string_view ip;           // "ip=" as printed (may be a redaction; the caller decides)
};
// Advances past the prefix and its trailing space.
bool ray_prefix(scan::Cursor& c, RayPrefix& out);

}  // namespace ncdx::analyze
