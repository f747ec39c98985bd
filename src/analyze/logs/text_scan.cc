#include "analyze/logs/text_scan.h"

namespace ncdx::analyze::scan {

std::int64_t days_from_civil(int y, int m, int d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

bool parse_time_of_day(Cursor& c, double& seconds) {
  Cursor t = c;
  int h, m, s;
  if (!t.num(h, 1, 2) || !t.eat(':') || !t.num(m, 2, 2) || !t.eat(':') || !t.num(s, 2, 2)) return false;
  if (h > 23 || m > 59 || s > 60) return false;
  double frac = 0;
  if ((t.peek() == '.' || t.peek() == ',') && is_digit(t.peek(1))) {
    ++t.i;
    double scale = 0.1;
    while (!t.end() && is_digit(t.peek())) {
      frac += (t.peek() - '0') * scale;
      scale *= 0.1;
      ++t.i;
    }
  }
  seconds = h * 3600.0 + m * 60.0 + s + frac;
  c = t;
  return true;
}

bool parse_iso_datetime(Cursor& c, double& epoch, double& clock) {
  Cursor t = c;
  int y, mo, d;
  if (!t.num(y, 4, 4) || !t.eat('-') || !t.num(mo, 2, 2) || !t.eat('-') || !t.num(d, 2, 2)) return false;
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return false;
  if (!t.eat(' ') && !t.eat('T') && !t.eat('_')) return false;
  if (!parse_time_of_day(t, clock)) return false;
  double offset = 0;
  if (t.eat('Z')) {
  } else if ((t.peek() == '+' || t.peek() == '-') && is_digit(t.peek(1))) {
    Cursor z = t;
    int sign = z.peek() == '-' ? -1 : 1;
    ++z.i;
    int hh, mm = 0;
    if (z.num(hh, 2, 2)) {
      z.eat(':');
      z.num(mm, 2, 2);
      offset = sign * (hh * 3600.0 + mm * 60.0);
      t = z;
    }
  }
  epoch = static_cast<double>(days_from_civil(y, mo, d)) * 86400.0 + clock - offset;
  c = t;
  return true;
}

int month_from_abbrev(std::string_view s) {
  static constexpr std::string_view kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                 "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  for (int i = 0; i < 12; ++i)
    if (s == kMonths[i]) return i + 1;
  return 0;
}

}  // namespace ncdx::analyze::scan
