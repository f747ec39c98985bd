// read_timeline_input and the line-based readers (inputs.h).
#include "analyze/timeline/inputs.h"

#include <re2/re2.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

#include "analyze/judge/nccl_tests_parse.h"
#include "analyze/timeline/chrome_trace_reader.h"
#include "analyze/timeline/json_pull.h"
#include "analyze/timeline/line_split.h"
#include "core/json.h"
#include "core/strings.h"

namespace ncdx::analyze::timeline {
namespace {

constexpr std::size_t kPeek = 64 * 1024;

// Replays the peeked head, then the rest of the source.
class HeadSource final : public ByteSource {
 public:
  HeadSource(ByteSource& src, std::string_view head) : src_(src), head_(head) {}  // head outlives the source
  std::size_t read(char* out, std::size_t cap) override {
    if (off_ < head_.size()) {
      std::size_t n = std::min(cap, head_.size() - off_);
      std::memcpy(out, head_.data() + off_, n);
      off_ += n;
      return n;
    }
    return src_.read(out, cap);
  }
  std::uint64_t bytes_in() const override { return src_.bytes_in(); }
  core::Status status() const override { return src_.status(); }

 private:
  ByteSource& src_;
  std::string_view head_;
  std::size_t off_ = 0;
};

// nccl-tests -J: the document starts with "version" and names its "nccl_version" (src/util.cu
// writeJsonHeader order @ a0b82b2: version, start_time, args, env, nccl_version; `ncdx bench -J`
// writes the keys sorted, "args" first); ncdx bench --json carries its schema name. Kineto
// traces start with "schemaVersion", "deviceProperties", "distributedInfo" or "traceEvents".
bool benchmark_json(std::string_view head, std::size_t brace) {
  std::size_t k = head.find_first_not_of(" \t\r\n", brace + 1);
  bool first_key = k != std::string_view::npos && (head.compare(k, 9, "\"version\"") == 0 || head.compare(k, 6, "\"args\"") == 0);
  bool nccl_tests = first_key && head.find("\"nccl_version\"") != std::string_view::npos;
  return nccl_tests || head.find("\"schema\": \"ncdx.bench/1\"") != std::string_view::npos ||
         head.find("\"schema\":\"ncdx.bench/1\"") != std::string_view::npos;
}

InputKind detect(std::string_view head) {
  std::size_t i = 0;
  if (head.substr(0, 3) == "\xEF\xBB\xBF") i = 3;
  while (i < head.size() && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t')) ++i;
  if (i < head.size() && head[i] == '[') {
    // A JSON array of events, or a log line starting with "[2024-…]" / "[rank0]:".
    std::size_t k = i + 1;
    while (k < head.size() && (head[k] == ' ' || head[k] == '\n' || head[k] == '\r' || head[k] == '\t')) ++k;
    if (k >= head.size() || head[k] == '{' || head[k] == ']') return InputKind::chrome;
    return judge::looks_like_nccl_tests(head) ? InputKind::benchmark : InputKind::log;
  }
  if (i < head.size() && head[i] == '{') {
    std::size_t nl = head.find('\n', i);
    std::string_view first = head.substr(i, nl == std::string_view::npos ? head.size() - i : nl - i);
    if (first.find("\"coll_perf\"") != std::string_view::npos || first.find("\"p2p_perf\"") != std::string_view::npos)
      return InputKind::inspector;
    return benchmark_json(head, i) ? InputKind::benchmark : InputKind::chrome;
  }
  return judge::looks_like_nccl_tests(head) ? InputKind::benchmark : InputKind::log;
}

const nlohmann::json* member(const nlohmann::json& j, const char* k) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(k);
  return it == j.end() ? nullptr : &*it;
}

std::optional<double> num_member(const nlohmann::json* j, const char* k) {
  const nlohmann::json* v = j ? member(*j, k) : nullptr;
  if (v && v->is_number()) return v->get<double>();
  return std::nullopt;
}

}  // namespace

core::Status read_inspector_lines(ByteSource& src, const std::string& name, TraceSet& out) {
  LineSplit lines(src, {});
  std::map<int, RankTrace> by_rank;
  std::map<int, Ns> clock;  // synthetic start times when the dump has no event_trace_ts
  bool synthetic = false;
  std::string_view line;
  std::uint64_t bytes = 0;
  while (lines.next(line)) {
    bytes += line.size() + 1;
    if (core::trim(line).empty()) continue;
    std::string where = name + ":" + std::to_string(lines.line_number());
    if (lines.truncated()) return core::Status::bad_input(where + ": line longer than 1 MiB, not an NCCL Inspector record");
    auto j = core::parse_json(line, where);
    if (!j) return core::Status::bad_input(where + ": expected one JSON object per line (NCCL Inspector output)");
    const nlohmann::json* header = member(*j, "header");
    const nlohmann::json* perf = member(*j, "coll_perf");
    auto rank = num_member(header, "rank");
    auto exec = num_member(perf, "coll_exec_time_us");
    RankTrace* r = nullptr;
    if (!perf) continue;  // p2p_perf and other records: not collectives
    if (!rank || !exec || *exec < 0 || *rank < 0 || *rank > 1e7) {
      if (!by_rank.empty()) {
        RankTrace& any = by_rank.begin()->second;
        ++any.skipped;
        ++any.skip_reasons[!rank ? "inspector record without header.rank" : "inspector record without a valid coll_exec_time_us"];
      }
      continue;
    }
    int rk = static_cast<int>(*rank);
    r = &by_rank[rk];
    if (r->format.empty()) {
      r->rank = rk;
      r->file = name;
      r->format = "inspector";
      r->rank_from = "record";
      r->comm_source = CommSource::inspector;
      if (auto n = num_member(header, "n_ranks")) r->world_size = static_cast<int>(*n);
    }
    ++r->events;
    CommOp op;
    const nlohmann::json* coll = member(*perf, "coll");
    op.coll = out.strings.id(coll && coll->is_string() ? collective_from_name(coll->get<std::string>()) : "");
    const nlohmann::json* id = member(*header, "id");
    if (id && id->is_string()) op.pg = out.strings.id(id->get<std::string>().substr(0, 64));
    if (auto sn = num_member(perf, "coll_sn")) op.seq = static_cast<std::int64_t>(*sn);
    if (auto b = num_member(perf, "coll_msg_size_bytes")) op.bytes = static_cast<std::int64_t>(*b);
    if (auto n = num_member(header, "n_ranks")) op.group_size = static_cast<std::int32_t>(*n);
    Ns dur = std::llround(*exec * 1000.0);
    auto start = num_member(member(*perf, "event_trace_ts"), "coll_start_ts");
    if (start) {
      op.start = std::llround(*start * 1000.0);
    } else {
      synthetic = true;
      op.start = clock[rk];
      clock[rk] += dur;
    }
    op.end = op.start + dur;
    r->comm.push_back(op);
    r->first = std::min(r->first, op.start);
    r->last = std::max(r->last, op.end);
  }
  if (!src.status().is_ok()) return src.status().with_context(name);
  if (by_rank.empty()) return core::Status::bad_input(name + ": no NCCL Inspector coll_perf records with a rank");
  for (auto& [rk, r] : by_rank) {
    std::stable_sort(r.comm.begin(), r.comm.end(), [](const CommOp& a, const CommOp& b) { return a.start < b.start; });
    r.bytes = bytes;
    out.ranks.push_back(std::move(r));
  }
  if (synthetic)
    out.notes.push_back(name + ": Inspector records without event_trace_ts (NCCL_INSPECTOR_DUMP_VERBOSE=0): placed back to back; arrival skew needs the verbose form");
  return {};
}

core::Status read_step_log(ByteSource& src, const std::string& name, TraceSet& out) {
  // Each: a cheap substring that must be in the line, the pattern, and whether the value is a
  // duration in ms (else a throughput whose inverse is the step cost).
  struct Pattern {
    const char* key;
    RE2 re;
    double to_us;   // > 0: value × to_us = step time in µs; < 0: throughput (time = 1e6 / value)
  };
  static const Pattern pats[] = {
      {"timing_s/step:", RE2(R"(\bstep:(\d+)\b.*\btiming_s/step:([0-9.eE+-]+))"), 1e6},             // verl
      {"elapsed time per iteration", RE2(R"(iteration\s+(\d+)\s*/.*elapsed time per iteration \(ms\):\s*([0-9.]+))"), 1e3},  // Megatron
      {"tps:", RE2(R"(\bstep:\s*(\d+)\b.*\btps:\s*([0-9,]+))"), -1},                                // torchtitan
      {"CurrSamplesPerSec=", RE2(R"(global_step=(\d+).*CurrSamplesPerSec=([0-9.eE+-]+))"), -1},      // DeepSpeed
  };
  static const RE2 rank_re(R"(\[[Rr]ank\s*(\d+)\])");
  LineSplit lines(src, {}, 64 * 1024);
  std::map<int, RankTrace> by_rank;
  int file_rank = rank_from_file_name(name);
  std::string_view line;
  std::uint64_t bytes = 0;
  while (lines.next(line)) {
    bytes += line.size() + 1;
    for (const auto& p : pats) {
      if (line.find(p.key) == std::string_view::npos) continue;
      std::string step_s, val_s;
      if (!RE2::PartialMatch(line, p.re, &step_s, &val_s)) continue;
      val_s.erase(std::remove(val_s.begin(), val_s.end(), ','), val_s.end());
      auto step = core::parse_int(step_s);
      auto val = core::parse_double(val_s);
      int rk = file_rank >= 0 ? file_rank : 0;
      int lr = -1;
      if (RE2::PartialMatch(line, rank_re, &lr) && lr >= 0) rk = lr;
      RankTrace& r = by_rank[rk];
      if (r.format.empty()) {
        r.rank = rk;
        r.file = name;
        r.format = "log";
        r.rank_from = lr >= 0 ? "log prefix" : file_rank >= 0 ? "file name" : "order";
      }
      ++r.events;
      if (!step || !val || !(*val > 0) || !std::isfinite(*val)) {
        ++r.skipped;
        ++r.skip_reasons["step line without a usable time"];
        break;
      }
      double us = p.to_us > 0 ? *val * p.to_us : 1e6 / *val;
      Ns start = r.steps.empty() ? 0 : r.steps.back().end;
      r.steps.push_back({*step, start, start + std::llround(us * 1000.0)});
      break;
    }
  }
  if (!src.status().is_ok()) return src.status().with_context(name);
  if (by_rank.empty())
    return core::Status::bad_input(name + ": not a Chrome/Kineto trace, Ray timeline, NCCL Inspector output, or a log with step times "
                                          "(verl timing_s/step, Megatron elapsed time per iteration, torchtitan tps, DeepSpeed CurrSamplesPerSec)");
  for (auto& [rk, r] : by_rank) {
    std::stable_sort(r.steps.begin(), r.steps.end(), [](const Step& a, const Step& b) { return a.number < b.number; });
    // Step times were laid end to end in line order; keep them so (no wall clock in the lines).
    if (!r.steps.empty()) {
      r.first = r.steps.front().start;
      r.last = r.steps.back().end;
    }
    r.bytes = bytes;
    out.ranks.push_back(std::move(r));
  }
  return {};
}

namespace {

// A benchmark output is small: read whole (the nccl-tests reader takes the text). Text that only
// looked like nccl-tests (no table the reader accepts, or over 64 MiB) is read as a step-time
// log instead.
core::Status read_benchmark(ByteSource& src, const std::string& name, TraceSet& out) {
  constexpr std::size_t kMaxBenchmark = 64u << 20;
  std::string text;
  char buf[64 * 1024];
  while (text.size() <= kMaxBenchmark) {
    std::size_t n = src.read(buf, sizeof buf);
    if (n == 0) break;
    text.append(buf, n);
  }
  if (!src.status().is_ok()) return src.status().with_context(name);
  std::size_t first = text.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
  bool json = first != std::string::npos && text[first] == '{';
  if (text.size() > kMaxBenchmark) {
    if (json) return core::Status::bad_input(name + ": benchmark JSON larger than 64 MiB");
    HeadSource rest(src, text);
    return read_step_log(rest, name, out);
  }
  if (json || judge::parse_nccl_tests(text, name).ok()) return read_benchmark_results(text, name, out);
  HeadSource again(src, text);
  return read_step_log(again, name, out);
}

}  // namespace

core::Status read_timeline_input(ByteSource& src, const std::string& name, TraceSet& out) {
  std::string head(kPeek, '\0');
  std::size_t got = 0;
  while (got < kPeek) {
    std::size_t n = src.read(head.data() + got, kPeek - got);
    if (n == 0) break;
    got += n;
  }
  head.resize(got);
  if (!src.status().is_ok()) return src.status().with_context(name);
  if (got == 0) return core::Status::bad_input(name + ": empty file");
  InputKind kind = detect(head);
  HeadSource whole(src, head);
  switch (kind) {
    case InputKind::chrome: return read_chrome_trace(whole, name, out);
    case InputKind::inspector: return read_inspector_lines(whole, name, out);
    case InputKind::log: return read_step_log(whole, name, out);
    case InputKind::benchmark: return read_benchmark(whole, name, out);
  }
  return {};
}

core::Status read_timeline_input(const std::string& path, TraceSet& out) {
  auto src = open_decoded(path);
  if (!src) return src.status();
  return read_timeline_input(**src, path, out);
}

}  // namespace ncdx::analyze::timeline
