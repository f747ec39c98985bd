#pragma once
// A safe, data-only pickle reader for PyTorch Flight Recorder dumps (abi.md §6).
//
// It understands exactly the opcodes that plain None/bool/int/float/str/bytes/list/tuple/dict/set
// need in protocols 0-5, and refuses every opcode that could import, build objects or call code
// (GLOBAL, STACK_GLOBAL, REDUCE, BUILD, INST, OBJ, NEWOBJ, NEWOBJ_EX, EXT1/2/4, PERSID,
// BINPERSID, NEXT_BUFFER, READONLY_BUFFER) with a bad_input Status naming the opcode and its byte
// offset. Nothing is ever executed: the reader has no notion of a callable.
//
// Mapping to JSON: tuples, lists, sets and frozensets become arrays; bytes/bytearray become
// {"__bytes__": "<base64>"}; dict keys become strings (str as is, int in decimal, bool/None as
// "true"/"false"/"null", float in shortest round-trip form, bytes as base64) — the same keys
// Python's json.dumps writes. Ints must fit in 64 bits (signed, or unsigned above 2^63).
// Memory is bounded by PickleLimits; truncated or malformed input is a bad_input Status.
#include <cstddef>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/result.h"

namespace ncdx::analyze {

struct PickleLimits {
  std::size_t max_bytes = 512u << 20;      // input size
  std::size_t max_values = 8'000'000;      // values built while reading (each opcode makes <= 1)
  std::size_t max_output = 16'000'000;     // JSON values produced (memo references are copied)
  std::size_t max_depth = 64;              // container nesting
  std::size_t max_memo = 4'000'000;        // memo entries
  std::size_t max_stack = 4'000'000;       // value stack + mark stack
};

// `source` names the input in error messages ("nccl_trace_rank_3: byte 17: ...").
core::Result<nlohmann::json> unpickle(std::string_view data, std::string_view source,
                                      const PickleLimits& limits = {});

// True when the bytes look like a pickle (PROTO 2-5, or a protocol 0/1 opening opcode that a
// data dump can start with). Used to sniff dump files by content.
bool looks_like_pickle(std::string_view data);

}  // namespace ncdx::analyze
