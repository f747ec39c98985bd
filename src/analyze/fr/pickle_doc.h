#pragma once
// A data-only pickle decoded into a compact value arena (pickler.cpp, pickletools): the fast path of the Flight
// Recorder reader. fr_model_pickle.cc builds the typed model straight from it, and fr/pickle.cc
// converts it to JSON for `unpickle`.
//
// Values are 16 bytes and refer to each other by index, so the memo holds references (a dict
// memoised while empty and filled later is seen filled everywhere; shared stack frames cost one
// value), cycles cost nothing to represent, and one dump is a handful of allocations. Strings
// are views into the input (the caller keeps it alive), or into owned storage for decoded
// protocol 0 text. A container's items are runs ("segments") of one flat index array: each
// APPENDS/SETITEMS adds one run, or extends the last one when nothing came in between.
//
// Safety: decode_pickle refuses every opcode that could import, build objects or call code
// (GLOBAL, STACK_GLOBAL, REDUCE, BUILD, INST, OBJ, NEWOBJ, NEWOBJ_EX, EXT1/2/4, PERSID,
// BINPERSID, NEXT_BUFFER, READONLY_BUFFER) with a bad_input Status naming the opcode and its byte
// offset; nothing is ever executed. Memory is bounded by PickleLimits.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace ncdx::analyze {

struct PickleLimits {
  std::size_t max_bytes = 256u << 20;      // input size (a 20000-entry rank dump is ~6 MB)
  std::size_t max_values = 4'000'000;      // values built (<= 1 per opcode; 16 bytes each)
  std::size_t max_items = 32'000'000;      // container slots, all containers together (4 bytes each)
  std::size_t max_output = 16'000'000;     // values visited when shared references are expanded
  std::size_t max_depth = 64;              // container nesting (JSON conversion)
  std::size_t max_memo = 4'000'000;        // memo entries
  std::size_t max_stack = 4'000'000;       // value stack + mark stack
};

class PickleDoc {
 public:
  enum class Kind : std::uint8_t { none, boolean, sint, uint, real, str, bytes, list, tuple, dict, set };
  static constexpr std::uint32_t npos = UINT32_MAX;

  struct Value {
    Kind kind = Kind::none;
    std::uint32_t n = 0;  // str/bytes: length; containers: index into containers_
    union {
      std::int64_t i = 0;  // sint, boolean (0/1)
      std::uint64_t u;     // uint (above INT64_MAX)
      double d;            // real
      const char* p;       // str/bytes bytes
    };
  };
  struct Container {
    std::uint32_t first = npos, last = npos;  // segments
    std::uint32_t count = 0;                  // items (dicts: keys and values)
    std::size_t offset = 0;                   // byte offset of the opcode that made it
  };
  struct Segment {
    std::uint32_t start = 0, len = 0, next = npos;
  };

  std::uint32_t root() const { return root_; }
  const Value& at(std::uint32_t id) const { return values_[id]; }
  Kind kind(std::uint32_t id) const { return values_[id].kind; }
  std::string_view text(std::uint32_t id) const { return {values_[id].p, values_[id].n}; }
  bool is_container(std::uint32_t id) const { return kind(id) >= Kind::list; }
  // Items of a container (dicts: key, value, key, value …).
  std::uint32_t size(std::uint32_t id) const { return containers_[values_[id].n].count; }
  std::size_t offset(std::uint32_t id) const {
    return is_container(id) ? containers_[values_[id].n].offset : 0;
  }
  std::size_t value_count() const { return values_.size(); }
  // False while a document is read in pieces (fr/json_stream.cc): each entry's values are dropped
  // once it is read and their indices reused, so an index names a value only for the moment.
  bool ids_stable() const { return ids_stable_; }
  // Calls f(item_id) for each item in order; f returns false to stop. Returns false if stopped.
  template <class F>
  bool for_each(std::uint32_t id, F&& f) const {
    for (std::uint32_t s = containers_[values_[id].n].first; s != npos; s = segments_[s].next) {
      const std::uint32_t* it = items_.data() + segments_[s].start;
      for (const std::uint32_t* end = it + segments_[s].len; it != end; ++it)
        if (!f(*it)) return false;
    }
    return true;
  }

 private:
  friend class PickleDecoder;
  friend class JsonDumpReader;
  // Everything added after mark() is dropped by rollback() (buffers kept for what comes next).
  struct Mark {
    std::size_t values, containers, segments, items, big, chunk, chunk_used;
  };
  Mark mark() const {
    return {values_.size(), containers_.size(), segments_.size(), items_.size(), big_.size(), chunk_, chunk_used_};
  }
  void rollback(const Mark& m);
  // Empties the document, keeping its buffers for the next one.
  void reset();
  std::uint32_t add(Kind k) {
    values_.emplace_back().kind = k;
    return static_cast<std::uint32_t>(values_.size() - 1);
  }
  std::uint32_t add_container(Kind k, std::size_t offset) {
    std::uint32_t id = add(k);
    values_[id].n = static_cast<std::uint32_t>(containers_.size());
    containers_.emplace_back().offset = offset;
    return id;
  }
  // Appends items [first, last) to container `id` as one run.
  void append(std::uint32_t id, const std::uint32_t* first, const std::uint32_t* last);
  // A copy of `s` that lives as long as the document's current contents.
  const char* store(std::string_view s);

  std::vector<Value> values_;
  std::vector<Container> containers_;
  std::vector<Segment> segments_;
  std::vector<std::uint32_t> items_;
  std::vector<std::unique_ptr<std::string>> owned_;  // decoded protocol 0 text
  // Text that is not in the input (JSON strings, unescaped): 1 MiB chunks, kept across reset().
  static constexpr std::size_t kChunk = 1u << 20;
  std::vector<std::unique_ptr<char[]>> chunks_;
  std::size_t chunk_ = 0, chunk_used_ = kChunk;
  std::vector<std::unique_ptr<char[]>> big_;  // strings larger than a quarter chunk
  std::uint32_t root_ = npos;
  bool ids_stable_ = true;
};

// `data` must outlive the returned document. `source` names the input in error messages
// ("nccl_trace_rank_3: byte 17: ...").
core::Result<PickleDoc> decode_pickle(std::string_view data, std::string_view source,
                                      const PickleLimits& limits = {});
// The same into an existing document, whose buffers are reused (one per reader of many dumps);
// on failure the document is empty.
core::Status decode_pickle_into(PickleDoc& doc, std::string_view data, std::string_view source,
                                const PickleLimits& limits = {});

// True when the bytes look like a pickle (PROTO 2-5, or a protocol 0/1 opening opcode that a
// data dump can start with). Used to sniff dump files by content.
bool looks_like_pickle(std::string_view data);

}  // namespace ncdx::analyze
