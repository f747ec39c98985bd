#pragma once
// nccl-tests' data verification (-c), written for any backend: every rank's input is a
// deterministic pattern of small integers (so sums, products, minima and maxima are exact in every
// element type, float and half included), and each rank computes the output it must receive from
// everybody's pattern, element by element, then counts the elements that differ.
#include <cstddef>
#include <vector>

#include "measure/collective/backend.h"

namespace ncdx::measure {

// The input of global rank `rank` for a call: `a.counts.send` elements of `a.type`.
std::vector<unsigned char> input_pattern(const CallArgs& a, int rank, int nranks);
// The output rank `rank` must hold afterwards (`a.counts.recv` elements, or the reduce root's
// `send`); empty when the rank gets no output (reduce, non-root).
std::vector<unsigned char> expected_output(const CallArgs& a, int rank, int nranks);
// Elements of `got` that differ from `want` (same type; floats within a relative 1e-3 for avg).
long long count_wrong(const CallArgs& a, const std::vector<unsigned char>& want, const std::vector<unsigned char>& got);

// Typed element access, exposed for tests: integers wrap modulo their width, half and bfloat16
// are converted exactly for the small integers the patterns use.
double load_element(DataType t, const unsigned char* base, std::size_t i);
void store_element(DataType t, unsigned char* base, std::size_t i, double v);

}  // namespace ncdx::measure
