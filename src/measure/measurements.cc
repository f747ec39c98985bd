#include "measure/measurements.h"

#include "core/json.h"

namespace ncdx::measure {

const char* to_string(Status s) {
  switch (s) {
    case Status::pass: return "PASS";
    case Status::warn: return "WARN";
    case Status::fail: return "FAIL";
    case Status::info: return "INFO";
    case Status::skip: return "SKIP";
  }
  return "INFO";
}

void judge(Measurement& m, bool lower_is_better) {
  if (!m.value) {
    m.pct_of_expected.reset();
    if (m.status != Status::skip) m.status = Status::skip;
    return;
  }
  if (!m.expected || *m.expected <= 0 || *m.value < 0) {
    m.pct_of_expected.reset();
    m.status = Status::info;
    return;
  }
  double pct = lower_is_better ? (*m.value > 0 ? 100.0 * *m.expected / *m.value : 100.0)
                               : 100.0 * *m.value / *m.expected;
  m.pct_of_expected = pct;
  m.status = pct >= kPassPct ? Status::pass : pct >= kWarnPct ? Status::warn : Status::fail;
}

Measurement skipped(std::string id, std::string title, std::string unit, std::string why) {
  Measurement m;
  m.id = std::move(id);
  m.title = std::move(title);
  m.unit = std::move(unit);
  m.status = Status::skip;
  m.detail = std::move(why);
  return m;
}

nlohmann::json to_json(const Measurement& m) {
  return {{"id", m.id},
          {"title", m.title},
          {"value", core::opt_json(m.value)},
          {"unit", m.unit},
          {"expected", core::opt_json(m.expected)},
          {"pct_of_expected", core::opt_json(m.pct_of_expected)},
          {"status", to_string(m.status)},
          {"detail", m.detail}};
}

}  // namespace ncdx::measure
