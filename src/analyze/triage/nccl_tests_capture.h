#pragma once
// The lines of each input that nccl-tests' reader uses (its '#' header and meta lines, the result
// rows, NCCL INFO lines for the transport), kept bounded while triage streams the input, so that
// an nccl-tests run met in a log is judged against the cost model (analyze/judge/triage_hook.h)
// instead of passing as "no failure found".
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ncdx::analyze {

// An input's kept lines: the text nccl-tests' reader gets, and the input's line number of each.
struct NcclTestsText {
  std::size_t file = 0;
  std::string text;
  std::vector<long long> line_numbers;  // [i] = input line of kept line i + 1
  // The input's line number of kept line `n` (1-based), n itself when out of range.
  long long input_line(long long n) const;
};

class NcclTestsCapture {
 public:
  // `nccl_info`: the line is an NCCL INFO line (the scanner's prefix parse says so).
  void add(std::size_t file, long long lineno, std::string_view line, bool nccl_info);
  // Every input whose kept lines hold an nccl-tests table (moved out; called once, at the end).
  std::vector<NcclTestsText> take_tables();

 private:
  struct PerFile {
    std::string text;
    std::vector<long long> line_numbers;
    std::size_t info_bytes = 0;
    bool header = false;  // the "size count type ... busbw" header was seen
  };
  // A log of many GB keeps at most this much: the table and its '#' lines are small, the NCCL
  // INFO lines (which name the transport: NET/Socket, GDRDMA) are capped on their own.
  static constexpr std::size_t kMaxPerFile = 8u << 20, kMaxInfoPerFile = 2u << 20, kMaxTotal = 32u << 20;
  std::vector<PerFile> files_;
  std::size_t total_ = 0;
};

}  // namespace ncdx::analyze
