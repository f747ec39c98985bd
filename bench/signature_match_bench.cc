// Throughput of SignatureSet::match() over NCCL_DEBUG=INFO logs: the hot path of `ncdx triage`.
// Input: every line of the real logs in ../shared/data/nccl_info_logs.jsonl ("info" mix), and the
// same lines interleaved with COLL lines (NCCL_DEBUG_SUBSYS=COLL prints one per collective per
// rank, so they dominate a long training log; the real logs have none, so they are built from
// NCCL's enqueue.cc format with varying opCount/count/rank). Reports bytes/s.
//
// NCDX_BENCH_FILE=<file> instead matches every line of <file> once (read whole into memory first, so
// only matching is timed; failure signatures only, as triage calls it, or all with NCDX_BENCH_ALL=1)
// and prints MB/s and the number of lines with a non-context match.
// NCDX_BENCH_DUMP=<file> writes the "info+coll" mix (repeated to ~64 MiB) to <file>, so the same
// bytes can be timed with `LC_ALL=C grep -E -c -f patterns.ere <file>` (bench/signature_vs_grep.sh).
#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "knowledge/signatures.h"

namespace {

std::vector<std::string> info_lines() {
  std::vector<std::string> out;
  std::ifstream in(std::string(NCDX_SHARED_DIR) + "/data/nccl_info_logs.jsonl");
  for (std::string rec; std::getline(in, rec);) {
    if (rec.empty()) continue;
    const std::string log = nlohmann::json::parse(rec).at("log_verbatim").get<std::string>();
    std::size_t start = 0;
    while (start <= log.size()) {
      std::size_t nl = log.find('\n', start);
      if (nl == std::string::npos) nl = log.size();
      out.emplace_back(log, start, nl - start);
      start = nl + 1;
    }
  }
  return out;
}

std::vector<std::string> coll_mix(const std::vector<std::string>& info) {
  static const char* ops[] = {"AllReduce", "AllGather", "ReduceScatter", "Broadcast", "Send", "Recv"};
  std::vector<std::string> out;
  char buf[512];
  std::size_t k = 0;
  for (unsigned i = 0; i < 4 * info.size(); ++i) {
    int rank = static_cast<int>(i % 64);
    std::snprintf(buf, sizeof buf,
                  "nccl-test-worker-%d:%d:%d [%d] NCCL INFO %s: opCount %x sendbuff 0x7f%08x recvbuff 0x7f%08x "
                  "count %u datatype 7 op 0 root 0 comm 0x55d5c9a3%02x [nranks=64] stream 0x55d5ca12%02x",
                  rank / 8, 1400 + rank, 1400 + rank, rank % 8, ops[i % 6], i / 64, i * 4096u, i * 4096u + 2048u,
                  1u << (i % 24), rank, rank);
    out.emplace_back(buf);
    if (i % 4 == 3) out.push_back(info[k++ % info.size()]);  // 1 INFO line per 4 COLL lines
  }
  return out;
}

const ncdx::knowledge::SignatureSet& sigs() {
  static auto set = ncdx::knowledge::SignatureSet::load_embedded();
  if (!set.ok()) {
    std::fprintf(stderr, "%s\n", set.status().message().c_str());
    std::exit(70);
  }
  return set.value();
}

void run(benchmark::State& state, const std::vector<std::string>& lines, bool include_context = true) {
  const auto& set = sigs();
  std::vector<ncdx::knowledge::SignatureMatch> out;
  std::size_t bytes = 0, hits = 0;
  for (const auto& l : lines) bytes += l.size() + 1;
  for (auto _ : state) {
    for (const auto& l : lines) {
      out.clear();
      set.match(l, out, include_context);
      hits += out.size();
    }
    benchmark::DoNotOptimize(hits);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
  state.counters["lines"] = static_cast<double>(lines.size());
}

void BM_MatchInfoLines(benchmark::State& state) {
  static const auto lines = info_lines();
  run(state, lines);
}
BENCHMARK(BM_MatchInfoLines)->Unit(benchmark::kMillisecond);

void BM_MatchInfoCollMix(benchmark::State& state) {
  static const auto lines = coll_mix(info_lines());
  run(state, lines);
}
BENCHMARK(BM_MatchInfoCollMix)->Unit(benchmark::kMillisecond);

// What `ncdx triage` calls: failure signatures only (it extracts context facts itself).
void BM_MatchInfoLinesFailuresOnly(benchmark::State& state) {
  static const auto lines = info_lines();
  run(state, lines, false);
}
BENCHMARK(BM_MatchInfoLinesFailuresOnly)->Unit(benchmark::kMillisecond);

void BM_MatchInfoCollMixFailuresOnly(benchmark::State& state) {
  static const auto lines = coll_mix(info_lines());
  run(state, lines, false);
}
BENCHMARK(BM_MatchInfoCollMixFailuresOnly)->Unit(benchmark::kMillisecond);

void BM_LoadSignatures(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(ncdx::knowledge::SignatureSet::load_embedded());
}
BENCHMARK(BM_LoadSignatures)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  if (const char* dump = std::getenv("NCDX_BENCH_DUMP")) {
    const auto lines = coll_mix(info_lines());
    std::ofstream out(dump, std::ios::binary);
    std::size_t written = 0;
    while (written < (64u << 20))
      for (const auto& l : lines) {
        out << l << '\n';
        written += l.size() + 1;
      }
    return out ? 0 : 1;
  }
  if (const char* path = std::getenv("NCDX_BENCH_FILE")) {
    std::ifstream in(path, std::ios::binary);
    const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto& set = sigs();
    std::vector<ncdx::knowledge::SignatureMatch> out;
    std::size_t lines = 0, failure_lines = 0;
    const std::clock_t c0 = std::clock();  // CPU time: the build machine is shared and noisy
    for (std::size_t pos = 0; pos < data.size();) {
      std::size_t nl = data.find('\n', pos);
      if (nl == std::string::npos) nl = data.size();
      out.clear();
      set.match(std::string_view(data).substr(pos, nl - pos), out, std::getenv("NCDX_BENCH_ALL") != nullptr);
      for (const auto& m : out)
        if (set.all()[m.index].role != ncdx::knowledge::Role::context) {
          ++failure_lines;
          break;
        }
      ++lines;
      pos = nl + 1;
    }
    const double s = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
    std::printf("%zu bytes, %zu lines, %zu with a failure signature, %.3f s CPU, %.1f MB/s\n", data.size(), lines,
                failure_lines, s, data.size() / s / 1e6);
    return 0;
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
