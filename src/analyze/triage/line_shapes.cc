#include "analyze/triage/line_shapes.h"

#include <cctype>
#include <cstddef>

namespace ncdx::analyze {

// CPython's report of an exception it ignored (Python/errors.c, the default unraisable hook):
// "Exception ignored in: <function X.__del__ at 0x…>" (3.13: also "Exception ignored while …"),
// then "Traceback (most recent call last):", the frames with their code lines, and the exception
// line ("AttributeError: …", a dotted name then a colon), which ends it. Whether `line` (trimmed)
// is part of one; `left` carries the state from line to line (a report cut short ends after 64).
bool unraisable_report_line(int& left, std::string_view line) {
  if (line.substr(0, 17) == "Exception ignored") {
    left = 64;
    return true;
  }
  if (left <= 0) return false;
  std::size_t n = 0;
  while (n < line.size() && (std::isalnum(static_cast<unsigned char>(line[n])) || line[n] == '_' || line[n] == '.')) ++n;
  const bool exception_line = n > 0 && !std::isdigit(static_cast<unsigned char>(line[0])) &&
                              (n == line.size() || line[n] == ':') && line.substr(0, 9) != "Traceback";
  left = exception_line || line.empty() ? 0 : left - 1;
  return true;
}

// An HTTP access-log line with a 2xx status: uvicorn's default access format (uvicorn/logging.py
// AccessFormatter, '%(client_addr)s - "%(request_line)s" %(status_code)s', as vLLM's and SGLang's
// OpenAI servers print it: '10.2.3.4:41122 - "POST /v1/chat/completions HTTP/1.1" 200 OK').
bool answered_ok(std::string_view line) {
  auto at = line.find(" HTTP/");
  if (at == std::string_view::npos || line.find(" - \"") == std::string_view::npos) return false;
  auto q = line.find("\" ", at);
  if (q == std::string_view::npos || q - at > 10 || q + 4 >= line.size()) return false;
  return line[q + 2] == '2' && std::isdigit(static_cast<unsigned char>(line[q + 3])) &&
         std::isdigit(static_cast<unsigned char>(line[q + 4]));
}

}  // namespace ncdx::analyze
