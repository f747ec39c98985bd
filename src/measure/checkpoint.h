#pragma once
// How long a checkpoint takes, and whether that exceeds the collective timeout. While one rank
// writes its checkpoint, the others wait in their next collective; if the write takes longer
// than the process-group timeout (10 min for NCCL by default: PyTorch 2.15.0
// torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp:165 kProcessGroupNCCLDefaultTimeout) the
// waiting ranks' watchdogs abort the job with a collective timeout that names the wrong ranks.
//
// Model: bytes = params x bytes_per_param. The checkpoint is split evenly over `writers` ranks.
// If they share the measured storage (one node's disk, or a shared filesystem whose bandwidth
// one writer already saturates), the aggregate rate is write_gbps; if each writer has its own
// storage path with the measured rate (per-node disks, one writer per node), it is
// writers x write_gbps. seconds = bytes / aggregate rate. Metadata, serialisation and
// compression costs are not modelled, so the estimate is a lower bound.
//
// bytes_per_param for mixed-precision Adam: 2 (bf16 weights) + 4 (fp32 master weights) + 4 + 4
// (Adam m and v) = 14 B/param in the checkpoint. The often-quoted 16 B/param (ZeRO paper) is the
// training memory, which also holds 2 B of bf16 gradients that are not saved.
#include <optional>
#include <string>

#include "core/finding.h"
#include "core/result.h"
#include "measure/measurements.h"

namespace ncdx::measure {

inline constexpr double kMixedPrecisionAdamCheckpointBytesPerParam = 14.0;
inline constexpr double kNcclDefaultTimeoutS = 600.0;  // PyTorch ProcessGroupNCCL default

struct CheckpointInput {
  double params = 0;                    // model parameters (7e9)
  double bytes_per_param = kMixedPrecisionAdamCheckpointBytesPerParam;
  double write_gbps = 0;                // measured write throughput (storage.write), GB/s
  int writers = 1;                      // ranks writing shards in parallel
  bool shared_storage = true;           // writers share the measured bandwidth
  double timeout_s = kNcclDefaultTimeoutS;
};

struct CheckpointEstimate {
  double bytes = 0;
  double per_writer_bytes = 0;
  double aggregate_gbps = 0;
  double seconds = 0;
  std::string basis;
};

// Bad inputs (non-positive params, rate, writers or timeout) are usage errors.
core::Result<CheckpointEstimate> checkpoint_estimate(const CheckpointInput& in);
// A Measurement (unit s): FAIL at or above the timeout, WARN above half of it, PASS below;
// expected = the timeout (the budget the checkpoint must fit in).
Measurement checkpoint_measurement(const CheckpointInput& in, const CheckpointEstimate& e);
// A finding when the checkpoint is estimated to outlast the timeout (class timeout-hang).
std::optional<core::Finding> checkpoint_timeout_finding(const CheckpointInput& in, const CheckpointEstimate& e);

}  // namespace ncdx::measure
