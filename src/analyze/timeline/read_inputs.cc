// read_timeline_inputs (read_inputs.h): a bounded pool of std::threads over the input files.
#include "analyze/timeline/read_inputs.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>

#include "analyze/timeline/inputs.h"

namespace ncdx::analyze::timeline {

unsigned timeline_jobs(unsigned requested, std::size_t files) {
  unsigned n = requested ? requested : std::max(1u, std::thread::hardware_concurrency());
  return static_cast<unsigned>(std::max<std::size_t>(1, std::min<std::size_t>(n, files)));
}

void merge_trace_set(TraceSet&& part, TraceSet& out) {
  std::vector<std::uint32_t> id(part.strings.size());
  for (std::uint32_t i = 0; i < id.size(); ++i) id[i] = out.strings.id(part.strings.name(i));
  for (auto& r : part.ranks) {
    for (auto& op : r.comm) {
      op.coll = id[op.coll];
      op.pg = id[op.pg];
    }
    out.ranks.push_back(std::move(r));
  }
  for (auto& m : part.measured) out.measured.push_back(std::move(m));
  for (auto& n : part.notes) out.notes.push_back(std::move(n));
}

core::Status read_timeline_inputs(const std::vector<std::string>& paths, unsigned jobs, TraceSet& out) {
  const std::size_t n = paths.size();
  std::vector<TraceSet> parts(n);
  std::vector<core::Status> status(n);
  std::vector<std::exception_ptr> thrown(n);  // rethrown here, in order, as a sequential read would throw
  // Stdin can be read once: a second "-" gets what the first left (nothing), as it would in
  // order; reading it from two threads at once would split the bytes between them.
  if (std::count(paths.begin(), paths.end(), "-") > 1) jobs = 1;
  jobs = timeline_jobs(jobs, n);
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> first_failed{n};  // files after a failure need not be read
  auto work = [&] {
    for (;;) {
      std::size_t i = next.fetch_add(1);
      if (i >= n || i > first_failed.load()) return;
      try {
        status[i] = read_timeline_input(paths[i], parts[i]);
      } catch (...) {
        thrown[i] = std::current_exception();
      }
      if (!status[i].is_ok() || thrown[i]) {
        std::size_t seen = first_failed.load();
        while (i < seen && !first_failed.compare_exchange_weak(seen, i)) {
        }
      }
    }
  };
  if (jobs <= 1) {
    work();
  } else {
    std::vector<std::thread> pool;
    pool.reserve(jobs - 1);
    for (unsigned t = 1; t < jobs; ++t) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (thrown[i]) std::rethrow_exception(thrown[i]);
    if (!status[i].is_ok()) return status[i];
    merge_trace_set(std::move(parts[i]), out);
    parts[i] = TraceSet();  // frees the file's events as soon as they are in `out`
  }
  return {};
}

}  // namespace ncdx::analyze::timeline
