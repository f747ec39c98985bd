#pragma once
// A safe, data-only pickle reader for PyTorch Flight Recorder dumps (torch/csrc/jit/serialization/pickler.cpp writes them), as JSON.
//
// decode_pickle (fr/pickle_doc.h) does the reading: it understands exactly the opcodes that plain
// None/bool/int/float/str/bytes/list/tuple/dict/set need in protocols 0-5, and refuses every
// opcode that could import, build objects or call code with a bad_input Status naming the opcode
// and its byte offset. Nothing is ever executed. `unpickle` converts the result to JSON for tools
// and tests; the Flight Recorder reader itself builds its model from the document directly.
//
// Mapping to JSON: tuples, lists, sets and frozensets become arrays; bytes/bytearray become
// {"__bytes__": "<base64>"}; dict keys become strings (str as is, int in decimal, bool/None as
// "true"/"false"/"null", float in shortest round-trip form, bytes as base64) — the same keys
// Python's json.dumps writes. Ints must fit in 64 bits (signed, or unsigned above 2^63).
// Memory is bounded by PickleLimits; truncated or malformed input is a bad_input Status, and so
// is a structure JSON cannot hold (a container inside itself).
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "analyze/fr/pickle_doc.h"
#include "core/result.h"

namespace ncdx::analyze {

// `source` names the input in error messages ("nccl_trace_rank_3: byte 17: ...").
core::Result<nlohmann::json> unpickle(std::string_view data, std::string_view source,
                                      const PickleLimits& limits = {});

// A dict key as JSON writes it (str as is, int in decimal, true/false/null, float, bytes as
// base64); false for a key JSON cannot hold.
bool pickle_key_text(const PickleDoc& doc, std::uint32_t id, std::string& out);

}  // namespace ncdx::analyze
