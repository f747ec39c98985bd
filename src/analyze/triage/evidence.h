#pragma once
// One evidence entry from a line the scan kept (a signature's event, a catalogued line): they carry
// the same file, line, rank, host, time and text.
#include <string>

#include "analyze/triage/model.h"
#include "core/finding.h"

namespace ncdx::analyze {

template <class Line>
core::Evidence evidence_at(const Line& l, const InputSummary& input) {
  core::Evidence e;
  e.file = l.file < input.files.size() ? input.files[l.file] : std::string();
  e.line = l.line;
  e.rank = l.rank;
  e.host = l.host;
  if (!l.time_text.empty()) e.time = l.time_text;
  e.text = l.text;
  return e;
}

}  // namespace ncdx::analyze
