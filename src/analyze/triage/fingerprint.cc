#include "analyze/triage/fingerprint.h"

#include <algorithm>
#include <charconv>

namespace ncdx::analyze {
namespace {

// Value of "Key=" inside one fingerprint body: up to the next ", " at bracket depth 0.
std::string value_of(std::string_view body, std::string_view key) {
  std::size_t p = 0;
  while ((p = body.find(key, p)) != std::string_view::npos) {
    if (p == 0 || body[p - 1] == ' ' || body[p - 1] == '(') break;
    p += key.size();
  }
  if (p == std::string_view::npos) return {};
  p += key.size();
  int depth = 0;
  std::size_t q = p;
  for (; q < body.size(); ++q) {
    char c = body[q];
    if (c == '[' || c == '(') ++depth;
    else if (c == ']' || c == ')') {
      if (depth == 0) break;
      --depth;
    } else if (c == ',' && depth == 0) break;
  }
  return std::string(body.substr(p, std::min<std::size_t>(q - p, 256)));
}

}  // namespace

bool read_fingerprints(std::string_view text, std::map<int, Fingerprint>& out, std::size_t max_ranks) {
  static constexpr std::string_view kRank = "Rank ";
  static constexpr std::string_view kRun = " is running collective: CollectiveFingerPrint(";
  bool any = false;
  for (std::size_t at = text.find(kRun); at != std::string_view::npos; at = text.find(kRun, at + kRun.size())) {
    // The rank number sits just before " is running collective".
    std::size_t d = at;
    while (d > 0 && text[d - 1] >= '0' && text[d - 1] <= '9') --d;
    if (d == at || d < kRank.size() || text.substr(d - kRank.size(), kRank.size()) != kRank) continue;
    int rank = 0;
    auto [p, ec] = std::from_chars(text.data() + d, text.data() + at, rank);
    if (ec != std::errc() || p != text.data() + at) continue;
    std::string_view body = text.substr(at + kRun.size());
    if (auto end = body.find("CollectiveFingerPrint("); end != std::string_view::npos) body = body.substr(0, end);
    Fingerprint fp{value_of(body, "SequenceNumber="), value_of(body, "OpType="), value_of(body, "TensorShape="),
                   value_of(body, "TensorDtypes=")};
    if (fp.op.empty() && fp.shape.empty()) continue;
    any = true;
    if (out.size() < max_ranks || out.count(rank)) out.try_emplace(rank, std::move(fp));
  }
  return any;
}

}  // namespace ncdx::analyze
