#pragma once
// The one outcome model of everything ncdx judges (doctor checks, measurements, audit/env/compat
// rows, topo and triage findings): a closed enum with one name, one colour, one exit code and one
// order for "worst". Renderers and exit codes derive from it; no other status strings exist.
#include <iosfwd>
#include <optional>
#include <string_view>

#include "core/finding.h"
#include "core/term.h"

namespace ncdx::core {

enum class Outcome { pass, info, warn, fail, skip };

inline constexpr Outcome kOutcomes[] = {Outcome::pass, Outcome::info, Outcome::warn, Outcome::fail, Outcome::skip};

// "PASS", "INFO", "WARN", "FAIL", "SKIP" (the spelling of every table, JSON "status" and JUnit case).
const char* to_string(Outcome o);
std::optional<Outcome> parse_outcome(std::string_view s);  // the upper-case names above
std::ostream& operator<<(std::ostream& os, Outcome o);      // the name (test failure messages)
// FAIL red, WARN yellow, PASS green, SKIP and INFO grey.
Color color_of(Outcome o);
// FAIL 2, WARN 1, everything else 0 (a check that could not run does not fail the run).
int exit_code_for(Outcome o);
// The order of "worst": SKIP < PASS < INFO < WARN < FAIL, so a skipped check never ranks above a
// failed one and a run whose checks were all skipped is not reported as worse than PASS.
int rank(Outcome o);
Outcome worst(Outcome a, Outcome b);
// The outcome of a row that has a `status` member (audit, env and compat rows, measurements).
struct StatusOf {
  template <class Row>
  Outcome operator()(const Row& r) const { return r.status; }
};
// Worst of a range of rows: `status_of(row)` gives each row's outcome; PASS for no rows or only SKIPs.
template <class Range, class Fn = StatusOf>
Outcome worst_of(const Range& rows, Fn status_of = {}) {
  Outcome w = Outcome::pass;
  for (const auto& r : rows) w = worst(w, status_of(r));
  return w;
}
// Exit code of a range of rows (the worst row's exit code).
template <class Range, class Fn = StatusOf>
int exit_code_of(const Range& rows, Fn status_of = {}) {
  return exit_code_for(worst_of(rows, status_of));
}
// A finding's outcome: error/critical FAIL, warn WARN, info INFO.
Outcome outcome_of(Severity s);

// Counts per outcome (the summaries of every table).
struct Tally {
  int pass = 0, info = 0, warn = 0, fail = 0, skip = 0;
  void add(Outcome o);
  int of(Outcome o) const;
  int total() const { return pass + info + warn + fail + skip; }
  // The worst outcome counted, by the order of worst(): PASS when nothing (or only SKIPs) was
  // counted, so a tally's status and the exit code of its rows always agree.
  Outcome worst() const;
};
template <class Range, class Fn = StatusOf>
Tally tally_of(const Range& rows, Fn status_of = {}) {
  Tally t;
  for (const auto& r : rows) t.add(status_of(r));
  return t;
}

}  // namespace ncdx::core
