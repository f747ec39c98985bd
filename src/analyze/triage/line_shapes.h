#pragma once
// What a line of a log is from its shape alone, for lines that look like errors and are not
// (split from scan.cc, which uses them).
#include <string_view>

namespace ncdx::analyze {

// Whether `line` (trimmed) belongs to a report of an exception CPython ignored and carried on
// after; `left` carries the state from line to line.
bool unraisable_report_line(int& left, std::string_view line);

// Whether `line` is an HTTP access-log line with a 2xx status (the server answered a request).
bool answered_ok(std::string_view line);

}  // namespace ncdx::analyze
