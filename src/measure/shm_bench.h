#pragma once
// /dev/shm write throughput. NCCL's SHM transport and PyTorch's CPU tensors in DataLoader workers
// live in /dev/shm; a container's default 64 MiB tmpfs or a slow, swapping tmpfs shows here.
// The file is created O_EXCL, unlinked at once (nothing is left behind even on a crash) and
// written in 4 MiB chunks; each pass starts from an empty file so tmpfs allocates its pages as a
// fresh NCCL segment would. Reported: the best pass. No expectation (host memory bandwidth is
// not modelled): status INFO, or SKIP/FAIL with the reason.
#include <cstddef>

#include "core/fs.h"
#include "measure/measurements.h"

namespace ncdx::measure {

struct ShmOptions {
  std::size_t bytes = std::size_t{256} << 20;  // shrunk to half the free space when smaller
  int passes = 3;
};

Measurement measure_shm_write(const core::FileSystem& fs, const ShmOptions& opt = {});

}  // namespace ncdx::measure
