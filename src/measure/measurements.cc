#include "measure/measurements.h"

#include "core/json.h"

namespace ncdx::measure {

void judge(Measurement& m, bool lower_is_better) {
  if (!m.value) {
    m.pct_of_expected.reset();
    if (m.status != core::Outcome::skip) m.status = core::Outcome::skip;
    return;
  }
  if (!m.expected || *m.expected <= 0 || *m.value < 0) {
    m.pct_of_expected.reset();
    m.status = core::Outcome::info;
    return;
  }
  double pct = lower_is_better ? (*m.value > 0 ? 100.0 * *m.expected / *m.value : 100.0)
                               : 100.0 * *m.value / *m.expected;
  m.pct_of_expected = pct;
  m.status = pct >= kPassPct ? core::Outcome::pass : pct >= kWarnPct ? core::Outcome::warn : core::Outcome::fail;
}

Measurement skipped(std::string id, std::string title, std::string unit, std::string why) {
  Measurement m;
  m.id = std::move(id);
  m.title = std::move(title);
  m.unit = std::move(unit);
  m.status = core::Outcome::skip;
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
