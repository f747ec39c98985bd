#include "analyze/triage/model.h"

namespace ncdx::analyze {

void merge_facts(ProcessFacts& dst, const ProcessFacts& src) {
  auto take = [](auto& d, const auto& s) {
    if (!d && s) d = s;
  };
  take(dst.rank, src.rank);
  take(dst.nranks, src.nranks);
  take(dst.host, src.host);
  take(dst.pid, src.pid);
  dst.cuda_devs.insert(src.cuda_devs.begin(), src.cuda_devs.end());
  dst.files.insert(src.files.begin(), src.files.end());
  take(dst.nccl_version, src.nccl_version);
  take(dst.nccl_cuda, src.nccl_cuda);
  take(dst.cuda_driver, src.cuda_driver);
  dst.init_start |= src.init_start;
  dst.init_complete |= src.init_complete;
  dst.watchdog_stuck |= src.watchdog_stuck;
  if (src.last_opcount && (!dst.last_opcount || *src.last_opcount > *dst.last_opcount)) {
    dst.last_opcount = src.last_opcount;
    dst.last_coll = src.last_coll;
  }
  take(dst.timeout_seq, src.timeout_seq);
  take(dst.timeout_op, src.timeout_op);
  take(dst.timeout_ms, src.timeout_ms);
  take(dst.ran_for_ms, src.ran_for_ms);
  take(dst.last_enqueued, src.last_enqueued);
  take(dst.last_completed, src.last_completed);
  take(dst.configured_timeout_ms, src.configured_timeout_ms);
  if (src.first_time && (!dst.first_time || *src.first_time < *dst.first_time)) dst.first_time = src.first_time;
  if (src.last_time && (!dst.last_time || *src.last_time > *dst.last_time)) dst.last_time = src.last_time;
  dst.time_is_epoch |= src.time_is_epoch;
  dst.lines += src.lines;
  dst.error_lines += src.error_lines;
  take(dst.c10d_call, src.c10d_call);
}

}  // namespace ncdx::analyze
