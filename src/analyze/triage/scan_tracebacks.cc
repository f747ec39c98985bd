// Which rank a traceback belongs to when its own lines carry none: a traceback under a "[rankN]:"
// logger line, and the per-rank blocks of a DCP CheckpointException. Part of Scanner (scan.h);
// split from scan.cc, which reads the line.
#include <algorithm>

#include "analyze/triage/scan.h"
#include "core/strings.h"

namespace ncdx::analyze {

// A Python traceback without a prefix right under a "[rankN]:" line (logging's exception() with
// a formatter that prints the rank: the record's first line has it, the traceback appended to it
// has not - CPython Lib/logging/__init__.py Formatter.format) is that rank's: its frames (indented),
// chained-exception separators, up to and including the exception line. Blank lines between are
// skipped by the caller, so a gap of two lines is still the same block.
std::optional<int> Scanner::traceback_rank(Carry& carry, long long lineno, const LinePrefix& p) {
  const std::string_view m = p.message.empty() ? p.text : p.message;
  const std::string_view t = core::trim(m);
  if (t.starts_with("Traceback (most recent call last):")) {
    if (carry.rank_line >= 0 && lineno - carry.rank_line == 1) carry.tb_rank = carry.rank_line_rank;
    if (carry.tb_rank) carry.tb_last = lineno;
    return carry.tb_rank;
  }
  if (!carry.tb_rank || lineno - carry.tb_last > 2) {
    carry.tb_rank.reset();
    return std::nullopt;
  }
  carry.tb_last = lineno;
  const int r = *carry.tb_rank;
  if (m.empty() || m.front() == ' ' || m.front() == '\t' || t.starts_with("During handling of the above exception,") ||
      t.starts_with("The above exception was the direct cause "))
    return r;
  carry.tb_rank.reset();  // the exception line ends the block
  return r;
}

// torch.distributed.checkpoint gathers every rank's exception and raises them on all ranks as one
// CheckpointException whose text has a block per failed rank: "Traceback (most recent call last):
// (RANK N)", the frames (indented), then the exception line (torch/distributed/checkpoint/api.py
// CheckpointException.__str__, torch 2.x). The printer of that block is a messenger: its lines,
// up to and including the exception line, are rank N's evidence.
std::optional<int> Scanner::reported_rank(Carry& carry, const LinePrefix& p) {
  static constexpr std::string_view kHeader = "Traceback (most recent call last): (RANK ";
  const int printer = p.rank ? *p.rank : -1;
  auto it = std::find_if(carry.reported.begin(), carry.reported.end(), [&](const auto& e) { return e.first == printer; });
  if (auto at = p.text.find(kHeader); at != std::string_view::npos) {
    std::string_view rest = p.text.substr(at + kHeader.size());
    auto n = core::parse_int(rest.substr(0, rest.find(')')));
    if (rest.find(')') == std::string_view::npos || !n || *n < 0 || *n > 999999) return std::nullopt;
    if (it != carry.reported.end()) it->second = static_cast<int>(*n);
    else if (carry.reported.size() < 64) carry.reported.emplace_back(printer, static_cast<int>(*n));
    return static_cast<int>(*n);
  }
  if (it == carry.reported.end()) return std::nullopt;
  const int n = it->second;
  // (The caller skips empty lines, so the text is not empty.)
  const std::string_view m = p.message.empty() ? p.text : p.message;
  if (m.front() == ' ' || m.front() == '\t') return n;  // a frame or its code line
  carry.reported.erase(it);  // the exception line ends the block
  return n;
}

}  // namespace ncdx::analyze
