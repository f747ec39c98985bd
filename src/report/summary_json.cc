#include "report/summary_json.h"

namespace ncdx::report {

nlohmann::json summary_json(const core::Tally& t) {
  return {{"status", core::to_string(t.worst())}, {"pass", t.pass}, {"info", t.info},
          {"warn", t.warn},                       {"fail", t.fail}, {"skip", t.skip}};
}

}  // namespace ncdx::report
