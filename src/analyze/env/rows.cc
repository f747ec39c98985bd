#include "analyze/env/rows.h"

#include <algorithm>

namespace ncdx::analyze {

void EnvRows::add(const std::string* parameter, const std::string* value, EnvWhere origin, core::Outcome status,
                  std::string_view rule, std::string_view risk, std::string_view recommended, std::string_view why,
                  std::string_view source) {
  rows_.push_back({parameter, value, origin.source, origin.line, intern(rule), intern(risk), intern(recommended),
                   intern(why), intern(source), status});
}

EnvRowView EnvRows::operator[](std::size_t i) const {
  const Row& r = rows_[i];
  return {*r.parameter, *r.value,      text(r.recommended), text(r.risk), r.status,
          text(r.why),  text(r.source), text(r.rule),       EnvWhere{r.origin, r.origin_line}.str()};
}

void EnvRows::finish() {
  auto before = [&](const Row& a, const Row& b) {
    return *a.parameter != *b.parameter ? *a.parameter < *b.parameter : text(a.rule) < text(b.rule);
  };
  // The rows of a file of unknown names come out of lint_env in order already; stable_sort would
  // still take a buffer as large as the rows.
  if (!std::is_sorted(rows_.begin(), rows_.end(), before)) std::stable_sort(rows_.begin(), rows_.end(), before);
  // Sorted, a parameter's rows are adjacent: drop its PASS rows when any of them is not PASS.
  std::size_t out = 0;
  for (std::size_t i = 0; i < rows_.size();) {
    std::size_t j = i;
    bool reported = false;
    for (; j < rows_.size() && *rows_[j].parameter == *rows_[i].parameter; ++j)
      reported |= rows_[j].status != core::Outcome::pass;
    for (; i < j; ++i)
      if (!reported || rows_[i].status != core::Outcome::pass) rows_[out++] = rows_[i];
  }
  rows_.resize(out);
}

}  // namespace ncdx::analyze
