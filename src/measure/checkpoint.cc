#include "measure/checkpoint.h"

#include <cmath>
#include <cstdio>

#include "core/strings.h"

namespace ncdx::measure {

namespace {
std::string fmt(double v, const char* f = "%.3g") {
  char b[48];
  std::snprintf(b, sizeof b, f, v);
  return b;
}
}  // namespace

core::Result<CheckpointEstimate> checkpoint_estimate(const CheckpointInput& in) {
  auto pos = [](double v) { return std::isfinite(v) && v > 0; };
  if (!pos(in.params)) return core::Status::usage("checkpoint: model parameters must be > 0");
  if (!pos(in.bytes_per_param)) return core::Status::usage("checkpoint: bytes per parameter must be > 0");
  if (!pos(in.write_gbps)) return core::Status::usage("checkpoint: write throughput must be > 0 GB/s");
  if (in.writers < 1) return core::Status::usage("checkpoint: writers must be >= 1");
  if (!pos(in.timeout_s)) return core::Status::usage("checkpoint: timeout must be > 0 s");
  CheckpointEstimate e;
  e.bytes = in.params * in.bytes_per_param;
  e.per_writer_bytes = e.bytes / in.writers;
  e.aggregate_gbps = in.shared_storage ? in.write_gbps : in.write_gbps * in.writers;
  e.seconds = e.bytes / (e.aggregate_gbps * 1e9);
  e.basis = fmt(in.params) + " params x " + fmt(in.bytes_per_param) + " B = " + core::human_bytes(e.bytes) + " over " +
            std::to_string(in.writers) + " writer" + (in.writers == 1 ? "" : "s") + " at " + fmt(e.aggregate_gbps) +
            " GB/s aggregate (" + (in.shared_storage ? "shared storage" : "one storage path per writer") + ")";
  return e;
}

Measurement checkpoint_measurement(const CheckpointInput& in, const CheckpointEstimate& e) {
  Measurement m;
  m.id = "checkpoint.estimate";
  m.title = "checkpoint write time vs collective timeout";
  m.unit = "s";
  m.value = e.seconds;
  m.expected = in.timeout_s;
  m.pct_of_expected = 100.0 * e.seconds / in.timeout_s;  // share of the timeout budget used
  m.status = e.seconds >= in.timeout_s ? core::Outcome::fail : e.seconds > in.timeout_s / 2 ? core::Outcome::warn : core::Outcome::pass;
  m.detail = e.basis + "; lower bound (no serialisation cost); expected = the timeout, " + fmt(in.timeout_s) + " s";
  return m;
}

std::optional<core::Finding> checkpoint_timeout_finding(const CheckpointInput& in, const CheckpointEstimate& e) {
  if (e.seconds < in.timeout_s) return std::nullopt;
  core::Finding f;
  f.id = "checkpoint-exceeds-collective-timeout";
  f.klass = "timeout-hang";
  f.severity = core::Severity::error;
  f.title = "A checkpoint takes longer than the collective timeout";
  f.summary = "Writing the checkpoint is estimated at " + fmt(e.seconds, "%.0f") + " s (" + e.basis +
              "), more than the " + fmt(in.timeout_s, "%.0f") +
              " s process-group timeout: ranks that wait in a collective while another rank writes will be "
              "aborted by the PyTorch watchdog, and the timeout will name them, not the writer.";
  f.culprit.component = "storage";
  f.fixes.push_back({"Raise the process-group timeout above the checkpoint time (init_process_group(timeout=...); "
                     "in verl: actor_rollout_ref.nccl_timeout)",
                     std::nullopt, std::nullopt, std::nullopt, "pytorch/pytorch torch/distributed/constants.py (NCCL default 10 min); verl-project/verl#668"});
  f.fixes.push_back({"Shard the checkpoint so every rank writes its part in parallel (torch.distributed.checkpoint), "
                     "or save asynchronously so the training ranks do not wait on storage",
                     std::nullopt, std::nullopt, std::nullopt, std::nullopt});
  f.fixes.push_back({"Write to faster storage (local NVMe, then copy out) and re-measure with ncdx doctor",
                     std::nullopt, std::nullopt, std::nullopt, std::nullopt});
  f.confidence = 0.7;  // a model with measured inputs, not an observed failure
  return f;
}

}  // namespace ncdx::measure
