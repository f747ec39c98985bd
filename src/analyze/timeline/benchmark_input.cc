// read_benchmark_results (inputs.h): nccl-tests and ncdx bench results as timeline input. The
// rows come from the reader `ncdx model --judge` uses (analyze/judge/nccl_tests_parse.h), so the
// two commands read the same files the same way.
#include "analyze/judge/nccl_tests_parse.h"
#include "analyze/timeline/inputs.h"
#include "model/cost/types.h"

namespace ncdx::analyze::timeline {

core::Status read_benchmark_results(std::string_view text, const std::string& name, TraceSet& out) {
  auto runs = judge::parse_nccl_tests(text, name);
  if (!runs.ok()) return runs.status();
  std::size_t before = out.measured.size();
  int unnamed = 0;
  for (const auto& run : *runs) {
    if (!run.coll) {
      // busbw's factor and the model both need the collective; a table without its header does
      // not say (`ncdx model --judge` takes --coll for these).
      ++unnamed;
      out.notes.push_back(name + ":" + std::to_string(run.first_line) +
                          ": nccl-tests run that does not name its collective (no \"Collective test starting\" line); its rows are not used");
      continue;
    }
    // The run's ranks: the "#  Rank N ..." lines (the JSON device list). nThread x nGpus is per
    // process under MPI, so without the lines the count is unknown (the spec's is used then).
    int nranks = run.ranks_listed > 0 ? run.ranks_listed : -1;
    for (const auto& row : run.rows) {
      // Out-of-place, else in-place: the side `ncdx model --judge` reads (judge.cc).
      const judge::NcclTestsSide& s = row.oop.time_us && row.oop.busbw_gbps ? row.oop : row.ip;
      if (!s.time_us || !s.busbw_gbps || *s.time_us <= 0) continue;
      MeasuredSize m;
      m.file = name;
      m.coll = std::string(model::cost::name(*run.coll));
      m.bytes = row.size;
      m.nranks = nranks;
      m.time_us = *s.time_us;
      m.busbw_gbps = *s.busbw_gbps;
      out.measured.push_back(std::move(m));
    }
  }
  if (out.measured.size() == before)
    return core::Status::bad_input(name + (unnamed ? ": nccl-tests output that does not name its collective (no \"Collective test starting: <test>\" line)"
                                                   : ": benchmark output with no size row that has a time and a busbw"));
  return {};
}

}  // namespace ncdx::analyze::timeline
