#include "measure/collective/data_check.h"

#include <cmath>
#include <cstdint>
#include <cstring>

namespace ncdx::measure {

namespace {

template <class T>
T get(const unsigned char* b, std::size_t i) {
  T v;
  std::memcpy(&v, b + i * sizeof(T), sizeof(T));
  return v;
}
template <class T>
void put(unsigned char* b, std::size_t i, T v) {
  std::memcpy(b + i * sizeof(T), &v, sizeof(T));
}

// IEEE half <-> float (round to nearest even), enough for the patterns and the avg of them.
std::uint16_t float_to_half(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, 4);
  std::uint32_t sign = (x >> 16) & 0x8000u;
  int exp = static_cast<int>((x >> 23) & 0xff) - 127 + 15;
  std::uint32_t mant = x & 0x7fffffu;
  if (((x >> 23) & 0xff) == 0xff) return static_cast<std::uint16_t>(sign | 0x7c00u | (mant ? 0x200u : 0));
  if (exp >= 31) return static_cast<std::uint16_t>(sign | 0x7c00u);
  if (exp <= 0) {
    if (exp < -10) return static_cast<std::uint16_t>(sign);
    mant |= 0x800000u;
    int shift = 14 - exp;
    std::uint32_t h = mant >> shift, rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1))) ++h;
    return static_cast<std::uint16_t>(sign | h);
  }
  std::uint32_t h = (static_cast<std::uint32_t>(exp) << 10) | (mant >> 13), rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1))) ++h;
  return static_cast<std::uint16_t>(sign | h);
}
float half_to_float(std::uint16_t h) {
  std::uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, mant = h & 0x3ffu;
  float f;
  if (exp == 0) {
    f = std::ldexp(static_cast<float>(mant), -24);
    if (sign) f = -f;
    return f;
  }
  std::uint32_t x = exp == 31 ? sign | 0x7f800000u | (mant << 13) : sign | ((exp - 15 + 127) << 23) | (mant << 13);
  std::memcpy(&f, &x, 4);
  return f;
}
std::uint16_t float_to_bf16(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, 4);
  std::uint32_t rounding = 0x7fffu + ((x >> 16) & 1);
  return static_cast<std::uint16_t>((x + rounding) >> 16);
}
float bf16_to_float(std::uint16_t b) {
  std::uint32_t x = static_cast<std::uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

bool is_float(DataType t) {
  return t == DataType::half || t == DataType::float32 || t == DataType::float64 || t == DataType::bfloat16;
}

// Small integers: op results stay exact in every type (sums below 9n, products below 2^(n/5+1)).
double pattern_value(RedOp op, int rank, std::size_t i) {
  if (op == RedOp::prod) return (static_cast<std::size_t>(rank) + i) % 5 == 0 ? 2.0 : 1.0;
  return static_cast<double>((static_cast<std::size_t>(rank) * 13 + i * 7) % 9);
}

double combine(RedOp op, double acc, double v) {
  switch (op) {
    case RedOp::sum:
    case RedOp::avg: return acc + v;
    case RedOp::prod: return acc * v;
    case RedOp::max: return acc > v ? acc : v;
    case RedOp::min: return acc < v ? acc : v;
  }
  return acc;
}

// Reduction over ranks of element `i` of everybody's input, wrapped to the type at the end (the
// integer patterns' partial results never leave int64, so wrapping once equals wrapping per step).
double reduced(const CallArgs& a, std::size_t i, int nranks) {
  double acc = pattern_value(a.op, 0, i);
  for (int r = 1; r < nranks; ++r) acc = combine(a.op, acc, pattern_value(a.op, r, i));
  if (a.op == RedOp::avg) acc /= nranks;
  return acc;
}

}  // namespace

double load_element(DataType t, const unsigned char* b, std::size_t i) {
  switch (t) {
    case DataType::int8: return get<std::int8_t>(b, i);
    case DataType::uint8: return get<std::uint8_t>(b, i);
    case DataType::int32: return get<std::int32_t>(b, i);
    case DataType::uint32: return get<std::uint32_t>(b, i);
    case DataType::int64: return static_cast<double>(get<std::int64_t>(b, i));
    case DataType::uint64: return static_cast<double>(get<std::uint64_t>(b, i));
    case DataType::half: return half_to_float(get<std::uint16_t>(b, i));
    case DataType::float32: return get<float>(b, i);
    case DataType::float64: return get<double>(b, i);
    case DataType::bfloat16: return bf16_to_float(get<std::uint16_t>(b, i));
  }
  return 0;
}

void store_element(DataType t, unsigned char* b, std::size_t i, double v) {
  // C++20: conversion of an integer to a narrower integer type is modular.
  auto wide = static_cast<std::int64_t>(std::llround(v));
  switch (t) {
    case DataType::int8: put(b, i, static_cast<std::int8_t>(wide)); break;
    case DataType::uint8: put(b, i, static_cast<std::uint8_t>(wide)); break;
    case DataType::int32: put(b, i, static_cast<std::int32_t>(wide)); break;
    case DataType::uint32: put(b, i, static_cast<std::uint32_t>(wide)); break;
    case DataType::int64: put(b, i, wide); break;
    case DataType::uint64: put(b, i, static_cast<std::uint64_t>(wide)); break;
    case DataType::half: put(b, i, float_to_half(static_cast<float>(v))); break;
    case DataType::float32: put(b, i, static_cast<float>(v)); break;
    case DataType::float64: put(b, i, v); break;
    case DataType::bfloat16: put(b, i, float_to_bf16(static_cast<float>(v))); break;
  }
}

std::vector<unsigned char> input_pattern(const CallArgs& a, int rank, int nranks) {
  const std::size_t e = size_of(a.type);
  std::vector<unsigned char> out(a.counts.send * e);
  for (std::size_t i = 0; i < a.counts.send; ++i) store_element(a.type, out.data(), i, pattern_value(a.op, rank, i));
  return out;
}

std::vector<unsigned char> expected_output(const CallArgs& a, int rank, int nranks) {
  const std::size_t e = size_of(a.type);
  const auto& k = a.counts;
  const std::size_t n = static_cast<std::size_t>(nranks);
  const auto g = static_cast<std::size_t>(rank);
  std::vector<unsigned char> out;
  auto make = [&](std::size_t count) { out.assign(count * e, 0); };
  switch (a.coll) {
    case Collective::allreduce:
      make(k.recv);
      for (std::size_t i = 0; i < k.recv; ++i) store_element(a.type, out.data(), i, reduced(a, i, nranks));
      break;
    case Collective::reduce:
      if (rank != a.root) break;
      make(k.recv);
      for (std::size_t i = 0; i < k.recv; ++i) store_element(a.type, out.data(), i, reduced(a, i, nranks));
      break;
    case Collective::reducescatter:
      make(k.recv);
      for (std::size_t i = 0; i < k.recv; ++i) store_element(a.type, out.data(), i, reduced(a, g * k.param + i, nranks));
      break;
    case Collective::allgather:
      make(k.recv);
      for (std::size_t r = 0; r < n; ++r)
        for (std::size_t i = 0; i < k.param; ++i)
          store_element(a.type, out.data(), r * k.param + i, pattern_value(a.op, static_cast<int>(r), i));
      break;
    case Collective::broadcast:
      make(k.recv);
      for (std::size_t i = 0; i < k.recv; ++i) store_element(a.type, out.data(), i, pattern_value(a.op, a.root, i));
      break;
    case Collective::alltoall:
      make(k.recv);
      for (std::size_t r = 0; r < n; ++r)
        for (std::size_t i = 0; i < k.param; ++i)
          store_element(a.type, out.data(), r * k.param + i, pattern_value(a.op, static_cast<int>(r), g * k.param + i));
      break;
    case Collective::sendrecv: {
      make(k.recv);
      int from = (rank - 1 + nranks) % nranks;
      for (std::size_t i = 0; i < k.recv; ++i) store_element(a.type, out.data(), i, pattern_value(a.op, from, i));
      break;
    }
  }
  return out;
}

long long count_wrong(const CallArgs& a, const std::vector<unsigned char>& want, const std::vector<unsigned char>& got) {
  const std::size_t e = size_of(a.type);
  const std::size_t n = want.size() / e;
  if (got.size() < want.size()) return static_cast<long long>(n);
  long long wrong = 0;
  const bool tol = is_float(a.type) && a.op == RedOp::avg;
  for (std::size_t i = 0; i < n; ++i) {
    double w = load_element(a.type, want.data(), i), x = load_element(a.type, got.data(), i);
    bool ok = tol ? std::fabs(w - x) <= 1e-3 * std::max(1.0, std::fabs(w)) : (w == x || (std::isnan(w) && std::isnan(x)));
    if (!ok) ++wrong;
  }
  return wrong;
}

}  // namespace ncdx::measure
