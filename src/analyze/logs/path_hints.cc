// hints_from_path(): what a log file's name and folders say about the process that wrote it.
// Layouts: "rank3.log" / "rank_3" / "log_rank-03.txt"; NCCL_DEBUG_FILE=nccl.%h.%p(.log);
// Ray "worker-<id>-<jobid>-<pid>.out|.err" and "python-core-worker-<id>_<pid>.log"; Slurm "slurm-%j.out" / "slurm-%j_%t.out"; torchrun
// --log-dir ".../<run>/attempt_<n>/<local_rank>/{stdout,stderr}.log".
#include <vector>

#include "analyze/logs/log_line.h"
#include "analyze/logs/text_scan.h"

namespace ncdx::analyze {
namespace {

using scan::is_alpha;
using scan::is_digit;

std::vector<std::string_view> components(std::string_view path) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i <= path.size()) {
    std::size_t j = path.find('/', i);
    if (j == std::string_view::npos) j = path.size();
    if (j > i) out.push_back(path.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

std::string_view strip_ext(std::string_view name) {
  for (std::string_view ext : {".gz", ".zst", ".log", ".txt", ".out", ".err"}) {
    if (name.size() > ext.size() && name.substr(name.size() - ext.size()) == ext)
      name.remove_suffix(ext.size());
  }
  return name;
}

bool all_digits(std::string_view s, int max = 9) {
  if (s.empty() || s.size() > static_cast<std::size_t>(max)) return false;
  for (char c : s)
    if (!is_digit(c)) return false;
  return true;
}

int to_int(std::string_view s) {
  int v = 0;
  for (char c : s) v = v * 10 + (c - '0');
  return v;
}

// "rank" as a word (not "ranking") followed by an optional _ - = and digits.
std::optional<int> rank_token(std::string_view s) {
  for (std::size_t k = s.find("rank"); k != std::string_view::npos; k = s.find("rank", k + 1)) {
    if (k > 0 && is_alpha(s[k - 1])) continue;
    std::size_t j = k + 4;
    if (j < s.size() && (s[j] == '_' || s[j] == '-' || s[j] == '=')) ++j;
    std::size_t d = j;
    while (j < s.size() && is_digit(s[j]) && j - d < 7) ++j;
    if (j == d || (j < s.size() && (is_alpha(s[j]) || is_digit(s[j])))) continue;
    return to_int(s.substr(d, j - d));
  }
  return std::nullopt;
}

std::vector<std::string_view> split(std::string_view s, std::string_view seps) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  for (std::size_t j = 0; j <= s.size(); ++j) {
    if (j == s.size() || seps.find(s[j]) != std::string_view::npos) {
      out.push_back(s.substr(i, j - i));
      i = j + 1;
    }
  }
  return out;
}

}  // namespace

FileHints hints_from_path(std::string_view path) {
  FileHints h;
  auto comps = components(path);
  if (comps.empty()) return h;
  std::string_view file = comps.back();
  std::string_view stem = strip_ext(file);

  if (stem.substr(0, 5) == "nccl." || stem.substr(0, 5) == "nccl_" || stem.substr(0, 5) == "nccl-") {
    // NCCL_DEBUG_FILE=nccl.%h.%p: host is cut at its first dot by NCCL, so it holds no dot.
    std::string_view rest = stem.substr(5);
    std::size_t sep = rest.find_last_of("._-");
    if (sep != std::string_view::npos && sep > 0 && all_digits(rest.substr(sep + 1))) {
      h.pid = to_int(rest.substr(sep + 1));
      h.host = std::string(rest.substr(0, sep));
    }
  } else if (stem.substr(0, 7) == "worker-" && (file.ends_with(".out") || file.ends_with(".err") || file.ends_with(".log"))) {
    auto parts = split(stem, "-");
    if (parts.size() >= 3 && all_digits(parts.back())) h.pid = to_int(parts.back());
  } else if (stem.substr(0, 19) == "python-core-worker-" || stem.substr(0, 19) == "python-core-driver-") {
    std::size_t us = stem.rfind('_');  // Ray "python-core-worker-<id>_<pid>.log"
    if (us != std::string_view::npos && all_digits(stem.substr(us + 1))) h.pid = to_int(stem.substr(us + 1));
  } else if (stem.substr(0, 6) == "slurm-") {
    auto parts = split(stem.substr(6), "-_.");
    if (!parts.empty() && all_digits(parts[0], 18)) {
      long long j = 0;
      for (char c : parts[0]) j = j * 10 + (c - '0');
      h.slurm_job = j;
      if (parts.size() == 2 && all_digits(parts[1])) h.rank = to_int(parts[1]);  // slurm-%j_%t.out
    }
  }

  // torchrun --log-dir: ".../attempt_<n>/<local_rank>/stdout.log|stderr.log"
  if (comps.size() >= 3 && (stem == "stdout" || stem == "stderr" || stem == "error") &&
      all_digits(comps[comps.size() - 2], 4) && comps[comps.size() - 3].substr(0, 8) == "attempt_") {
    h.local_rank = to_int(comps[comps.size() - 2]);
  }

  if (!h.rank) {
    // The file name first, then its folders, nearest first ("rank_3/stdout.log").
    for (std::size_t k = comps.size(); k-- > 0 && !h.rank;) {
      std::string_view c = k + 1 == comps.size() ? stem : comps[k];
      if (auto r = rank_token(c)) h.rank = r;
    }
  }
  return h;
}

std::optional<std::string_view> tail_header_path(std::string_view t) {
  while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
  while (!t.empty() && (t.back() == ' ' || t.back() == '\t' || t.back() == '\r')) t.remove_suffix(1);
  if (t.size() < 9 || t.substr(0, 4) != "==> " || t.substr(t.size() - 4) != " <==") return std::nullopt;
  t = t.substr(4, t.size() - 8);
  if (t.size() >= 2 && t.front() == '\'' && t.back() == '\'') t = t.substr(1, t.size() - 2);  // quotef
  if (t.empty() || t.find("==>") != std::string_view::npos) return std::nullopt;
  return t;
}

}  // namespace ncdx::analyze
