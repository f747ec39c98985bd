#include "analyze/triage/nccl_tests_capture.h"

#include <cctype>

namespace ncdx::analyze {
namespace {

std::string_view trim_left(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}

// nccl-tests prints its column header as "#  size  count  type  redop  root  time  algbw  busbw
// #wrong ..." (src/common.cu, printHeader), older versions without '#'.
bool is_header(std::string_view s) {
  if (!s.empty() && s.front() == '#') s = trim_left(s.substr(1));
  if (!s.starts_with("size")) return false;
  s = trim_left(s.substr(4));
  return s.starts_with("count") || s.starts_with("(B)");
}

}  // namespace

long long NcclTestsText::input_line(long long n) const {
  return n >= 1 && static_cast<std::size_t>(n) <= line_numbers.size() ? line_numbers[static_cast<std::size_t>(n - 1)] : n;
}

void NcclTestsCapture::add(std::size_t file, long long lineno, std::string_view line, bool nccl_info) {
  std::string_view s = trim_left(line);
  if (s.empty()) return;
  const bool table = s.front() == '#' || std::isdigit(static_cast<unsigned char>(s.front()));
  const bool info = !table && nccl_info;
  if (!table && !info) return;
  if (files_.size() <= file) files_.resize(file + 1);
  PerFile& f = files_[file];
  if (info && f.info_bytes + line.size() > kMaxInfoPerFile) return;
  if (f.text.size() + line.size() >= kMaxPerFile || total_ + line.size() >= kMaxTotal) return;
  if (table && is_header(s)) f.header = true;
  if (info) f.info_bytes += line.size() + 1;
  f.text.append(line).push_back('\n');
  f.line_numbers.push_back(lineno);
  total_ += line.size() + 1;
}

std::vector<NcclTestsText> NcclTestsCapture::take_tables() {
  std::vector<NcclTestsText> out;
  for (std::size_t i = 0; i < files_.size(); ++i)
    if (files_[i].header) out.push_back({i, std::move(files_[i].text), std::move(files_[i].line_numbers)});
  files_.clear();
  total_ = 0;
  return out;
}

}  // namespace ncdx::analyze
