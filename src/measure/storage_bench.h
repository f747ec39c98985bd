#pragma once
// Sequential write and read throughput of a directory (where checkpoints go). The write is
// timed up to and including fsync; both directions use O_DIRECT when the filesystem accepts it
// (tmpfs, some FUSE and network filesystems do not), otherwise buffered I/O with fsync, and for
// the read the page cache is dropped for the file with posix_fadvise(DONTNEED) first. Which path
// was taken is stated in `detail`: a buffered read can still be served by a device or server
// cache. The buffer holds non-repeating bytes so compression/dedup do not inflate the numbers.
// No expectation (storage is not modelled): status INFO; the write number feeds
// checkpoint_estimate().
#include <cstddef>
#include <string>
#include <vector>

#include "measure/measurements.h"

namespace ncdx::measure {

struct StorageOptions {
  std::string dir;                                // directory to test (a file is created and removed)
  std::size_t bytes = std::size_t{1} << 30;       // shrunk to a quarter of the free space if needed
  std::size_t block = std::size_t{4} << 20;
};

// Returns {storage.write, storage.read}.
std::vector<Measurement> measure_storage(const StorageOptions& opt);

}  // namespace ncdx::measure
