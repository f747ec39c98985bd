#pragma once
// Range checks for numeric flags (issue #12: `--idle -5` and `--idle nan` meant "forever",
// `--max-evidence -1` was taken). A number outside its range, NaN or infinity is a usage error
// (64) naming the flag, before the command runs. CLI11 runs validators on the text, so a negative
// value never wraps into a size_t.
#include <CLI/CLI.hpp>

#include <optional>
#include <string>

namespace ncdx::cli {

// A finite number in [lo, hi].
CLI::Validator number_in(double lo, double hi);
// An integer in [lo, hi] (no fraction, no exponent tricks).
CLI::Validator integer_in(long long lo, long long hi);
// "512M", "20G", "1T", "4096": a byte count (K/M/G/T are powers of 1024); nullopt when not one.
std::optional<unsigned long long> parse_byte_size(const std::string& s);

}  // namespace ncdx::cli
