#pragma once
// Reading a file the user named (--env-file, --config, --script, --smi, --xml, "-"): at most
// max_bytes are ever held; one byte more means the file is refused as too large (bad input, 65)
// instead of being slurped whole first (a 10 GB file, or /dev/zero, used to be read entirely
// before its size was checked). FIFOs and stdin stay allowed: `--env-file <(env)` is ordinary use.
// Directories are refused (66). Trees under --root go through core::FileSystem instead.
#include <cstddef>
#include <string>

#include "core/result.h"

namespace ncdx::core {

// "-" is stdin. `what` ends the too-large message ("not an env file").
Result<std::string> read_bounded(const std::string& path, std::size_t max_bytes, const std::string& what);

}  // namespace ncdx::core
