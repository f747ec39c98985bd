#include "core/outcome.h"

#include <ostream>

#include "core/exit_codes.h"

namespace ncdx::core {

const char* to_string(Outcome o) {
  switch (o) {
    case Outcome::pass: return "PASS";
    case Outcome::info: return "INFO";
    case Outcome::warn: return "WARN";
    case Outcome::fail: return "FAIL";
    case Outcome::skip: return "SKIP";
  }
  return "SKIP";
}

std::optional<Outcome> parse_outcome(std::string_view s) {
  for (Outcome o : kOutcomes)
    if (s == to_string(o)) return o;
  return std::nullopt;
}

std::ostream& operator<<(std::ostream& os, Outcome o) { return os << to_string(o); }

Color color_of(Outcome o) {
  switch (o) {
    case Outcome::pass: return Color::green;
    case Outcome::warn: return Color::yellow;
    case Outcome::fail: return Color::red;
    case Outcome::info:
    case Outcome::skip: return Color::grey;
  }
  return Color::grey;
}

int exit_code_for(Outcome o) {
  return o == Outcome::fail ? to_int(Exit::failures) : o == Outcome::warn ? to_int(Exit::warnings) : to_int(Exit::ok);
}

int rank(Outcome o) {
  switch (o) {
    case Outcome::skip: return 0;
    case Outcome::pass: return 1;
    case Outcome::info: return 2;
    case Outcome::warn: return 3;
    case Outcome::fail: return 4;
  }
  return 0;
}

Outcome worst(Outcome a, Outcome b) { return rank(b) > rank(a) ? b : a; }

Outcome outcome_of(Severity s) {
  return s >= Severity::error ? Outcome::fail : s == Severity::warn ? Outcome::warn : Outcome::info;
}

void Tally::add(Outcome o) {
  switch (o) {
    case Outcome::pass: ++pass; break;
    case Outcome::info: ++info; break;
    case Outcome::warn: ++warn; break;
    case Outcome::fail: ++fail; break;
    case Outcome::skip: ++skip; break;
  }
}

int Tally::of(Outcome o) const {
  switch (o) {
    case Outcome::pass: return pass;
    case Outcome::info: return info;
    case Outcome::warn: return warn;
    case Outcome::fail: return fail;
    case Outcome::skip: return skip;
  }
  return 0;
}

Outcome Tally::worst() const {
  Outcome w = Outcome::pass;
  for (Outcome o : kOutcomes)
    if (of(o) > 0) w = ncdx::core::worst(w, o);
  return w;
}

}  // namespace ncdx::core
