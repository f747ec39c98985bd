// The pickle opcode interpreter behind decode_pickle (fr/pickle_doc.h). One pass over the bytes,
// one switch per opcode; errors are recorded once and unwind as `false`, so the hot path carries
// no Status objects. Protocol 0/1 text opcodes are in fr/pickle_decode_text.cc.
#include <cstring>
#include <unordered_map>

#include "analyze/fr/pickle_decode.h"
#include "analyze/fr/pickle_ops.h"
#include "analyze/fr/pickle_text.h"

namespace ncdx::analyze {

using core::Status;
using pickle_ops::hex2;
using pickle_ops::op_info;
using Kind = PickleDoc::Kind;

bool PickleDecoder::fail(std::size_t at, const std::string& msg) {
  err_ = Status::bad_input(std::string(source_) + ": byte " + std::to_string(at) + ": " + msg);
  return false;
}
const char* PickleDecoder::op_name() const {
  const char* n = op_info(static_cast<unsigned char>(in_[op_at_])).name;
  return n ? n : "?";
}
bool PickleDecoder::truncated(std::size_t need) {
  return fail(op_at_, std::string("truncated: ") + op_name() + " needs " + std::to_string(need) +
                          " more bytes but the input ends at byte " + std::to_string(in_.size()));
}
bool PickleDecoder::underflow() { return fail(op_at_, std::string(op_name()) + " on an empty stack"); }

bool PickleDecoder::too_many_values() {
  return fail(op_at_, "more than " + std::to_string(lim_.max_values) + " values");
}
bool PickleDecoder::too_deep() { return fail(op_at_, "stack deeper than " + std::to_string(lim_.max_stack)); }
bool PickleDecoder::push_scalar(Kind k, std::int64_t v) {
  std::uint32_t id;
  if (!new_value(k, id)) return false;
  doc_.values_[id].i = v;
  return push(id);
}
bool PickleDecoder::push_int(__int128 v) {
  if (v >= INT64_MIN && v <= INT64_MAX) return push_scalar(Kind::sint, static_cast<std::int64_t>(v));
  if (v > 0 && v <= static_cast<__int128>(UINT64_MAX)) {
    std::uint32_t id;
    if (!new_value(Kind::uint, id)) return false;
    doc_.values_[id].u = static_cast<std::uint64_t>(v);
    return push(id);
  }
  return fail(op_at_, "integer does not fit in 64 bits");
}
bool PickleDecoder::push_real(double d) {
  std::uint32_t id;
  if (!new_value(Kind::real, id)) return false;
  doc_.values_[id].d = d;
  return push(id);
}
bool PickleDecoder::push_text(Kind k, std::string_view s) {
  if (k == Kind::str && !valid_utf8(s)) return fail(op_at_, "string is not valid UTF-8");
  std::uint32_t id;
  if (!new_value(k, id)) return false;
  doc_.values_[id].n = static_cast<std::uint32_t>(s.size());
  doc_.values_[id].p = s.data();
  return push(id);
}
bool PickleDecoder::push_container(Kind k) {
  std::uint32_t id;
  if (!new_value(k, id)) return false;
  doc_.values_[id].n = static_cast<std::uint32_t>(doc_.containers_.size());
  doc_.containers_.emplace_back().offset = op_at_;
  return push(id);
}
bool PickleDecoder::read_sized(std::size_t width, bool is_signed, std::string_view& payload) {
  std::uint64_t len = 0;
  if (!have(width)) return truncated(width);
  for (std::size_t k = 0; k < width; ++k) len |= std::uint64_t(std::uint8_t(in_[pos_ + k])) << (8 * k);
  pos_ += width;
  if (is_signed && width == 4 && (len & 0x80000000u)) return fail(op_at_, "negative length");
  if (!have(len)) return truncated(len);
  payload = in_.substr(pos_, len);
  pos_ += len;
  return true;
}

bool PickleDecoder::memo_put(std::uint64_t idx) {
  if (stack_.size() <= floor()) return underflow();
  std::uint32_t top = stack_.back();
  if (idx < dense_.size() && dense_[idx] != PickleDoc::npos) {
    dense_[idx] = top;
    return true;
  }
  if (idx >= lim_.max_memo) {
    auto it = sparse_.find(idx);
    if (it != sparse_.end()) {
      it->second = top;
      return true;
    }
  }
  if (memo_count_ >= lim_.max_memo)
    return fail(op_at_, "more than " + std::to_string(lim_.max_memo) + " memo entries");
  ++memo_count_;
  if (idx < lim_.max_memo) {
    if (idx >= dense_.size())
      dense_.resize(std::min<std::size_t>(lim_.max_memo, std::max<std::size_t>(idx + 1, dense_.size() * 2)),
                    PickleDoc::npos);
    dense_[idx] = top;
  } else {
    sparse_[idx] = top;
  }
  return true;
}
bool PickleDecoder::memo_get_slow(std::uint64_t idx) {
  std::uint32_t id = PickleDoc::npos;
  if (idx >= lim_.max_memo) {
    auto it = sparse_.find(idx);
    if (it != sparse_.end()) id = it->second;
  }
  if (id == PickleDoc::npos) return fail(op_at_, "memo index " + std::to_string(idx) + " was never stored");
  return push(id);
}
bool PickleDecoder::pop_mark(std::size_t& m) {
  if (marks_.empty()) return fail(op_at_, std::string(op_name()) + " without a MARK");
  m = marks_.back();
  marks_.pop_back();
  return true;
}
bool PickleDecoder::container_at(std::size_t idx, Kind want, const char* what, std::uint32_t& id) {
  if (idx < floor() || idx >= stack_.size()) return underflow();
  id = stack_[idx];
  if (doc_.values_[id].kind != want) return fail(op_at_, std::string(op_name()) + " target is not a " + what);
  return true;
}
bool PickleDecoder::check_keys(std::size_t from, std::size_t to) {
  if ((to - from) % 2) return fail(op_at_, std::string(op_name()) + " with an odd number of items");
  for (std::size_t k = from; k < to; k += 2) {
    Kind kk = doc_.values_[stack_[k]].kind;
    if (kk == Kind::list || kk == Kind::dict || kk == Kind::set)
      return fail(op_at_, "unhashable dict key (a list, dict or set)");
    if (kk == Kind::tuple) return fail(op_at_, "tuple dict keys are not supported");
  }
  return true;
}
bool PickleDecoder::check_hashable(std::size_t from, std::size_t to) {
  for (std::size_t k = from; k < to; ++k) {
    Kind kk = doc_.values_[stack_[k]].kind;
    if (kk == Kind::list || kk == Kind::dict || kk == Kind::set) return fail(op_at_, "unhashable set item");
  }
  return true;
}
// Moves stack_[from, end) into container `id` and drops them from the stack.
bool PickleDecoder::append_items(std::uint32_t id, std::size_t from) {
  std::size_t n = stack_.size() - from;
  if (n == 0) return true;
  if (doc_.items_.size() + n > lim_.max_items)
    return fail(op_at_, "more than " + std::to_string(lim_.max_items) + " container items");
  doc_.append(id, stack_.data() + from, stack_.data() + stack_.size());
  stack_.resize(from);
  return true;
}
// A new container of kind k holding stack_[from, end).
bool PickleDecoder::make_from(Kind k, std::size_t from) {
  std::uint32_t id;
  if (!new_value(k, id)) return false;
  doc_.values_[id].n = static_cast<std::uint32_t>(doc_.containers_.size());
  doc_.containers_.emplace_back().offset = op_at_;
  if (!append_items(id, from)) return false;
  return push(id);
}

core::Status PickleDecoder::run() {
  doc_.reset();
  if (in_.size() > lim_.max_bytes)
    return Status::bad_input(std::string(source_) + ": pickle of " + std::to_string(in_.size()) +
                             " bytes exceeds the limit of " + std::to_string(lim_.max_bytes));
  if (in_.empty()) return Status::bad_input(std::string(source_) + ": empty file, expected a pickle");
  // Rough sizes from the torch layout (~3 bytes per value) save the vectors' regrowth.
  doc_.values_.reserve(std::min(lim_.max_values, in_.size() / 3 + 16));
  doc_.items_.reserve(std::min(lim_.max_items, in_.size() / 3 + 16));
  bool ok = loop();
  if (ok && pos_ != in_.size()) ok = fail(pos_, std::to_string(in_.size() - pos_) + " unexpected bytes after STOP");
  if (!ok) {
    doc_.root_ = PickleDoc::npos;
    return err_;
  }
  return Status::ok();
}

bool PickleDecoder::loop() {
  const auto* b = reinterpret_cast<const unsigned char*>(in_.data());
  const std::size_t n = in_.size();
  for (;;) {
    if (pos_ >= n) return fail(n, "truncated: input ends before the STOP opcode");
    op_at_ = pos_;
    const unsigned char op = b[pos_++];
    switch (op) {
      case 'h':  // BINGET: a memoised string or container, the commonest opcode in torch dumps
        if (!have(1)) return truncated(1);
        if (!memo_get(b[pos_++])) return false;
        continue;
      case 'j':
        if (!have(4)) return truncated(4);
        if (!memo_get(le32(b + pos_))) return false;
        pos_ += 4;
        continue;
      case 'q':
        if (!have(1)) return truncated(1);
        if (!memo_put(b[pos_++])) return false;
        continue;
      case 'r':
        if (!have(4)) return truncated(4);
        if (!memo_put(le32(b + pos_))) return false;
        pos_ += 4;
        continue;
      case 0x94:  // MEMOIZE
        if (!memo_put(memo_count_)) return false;
        continue;
      case 'X':
      case 0x8c:
      case 0x8d: {
        std::string_view s;
        if (!read_sized(op == 'X' ? 4 : op == 0x8c ? 1 : 8, false, s) || !push_text(Kind::str, s)) return false;
        continue;
      }
      case 'K':
        if (!have(1)) return truncated(1);
        if (!push_scalar(Kind::sint, b[pos_++])) return false;
        continue;
      case 'M':
        if (!have(2)) return truncated(2);
        if (!push_scalar(Kind::sint, b[pos_] | (b[pos_ + 1] << 8))) return false;
        pos_ += 2;
        continue;
      case 'J':
        if (!have(4)) return truncated(4);
        if (!push_scalar(Kind::sint, static_cast<std::int32_t>(le32(b + pos_)))) return false;
        pos_ += 4;
        continue;
      case 0x8a:
      case 0x8b: {  // LONG1 / LONG4: little-endian two's complement
        std::size_t w = op == 0x8a ? 1 : 4;
        if (!have(w)) return truncated(w);
        std::uint32_t len = w == 1 ? b[pos_] : le32(b + pos_);
        pos_ += w;
        if (w == 4 && (len & 0x80000000u)) return fail(op_at_, "negative length");
        if (!have(len)) return truncated(len);
        const unsigned char* v = b + pos_;
        pos_ += len;
        // Python writes the minimal length, so more than 9 bytes is always beyond 64 bits.
        if (len > 9) return fail(op_at_, "integer of " + std::to_string(len) + " bytes does not fit in 64 bits");
        unsigned __int128 x = 0;
        for (std::size_t k = 0; k < len; ++k) x |= static_cast<unsigned __int128>(v[k]) << (8 * k);
        auto s = static_cast<__int128>(x);
        if (len > 0 && (v[len - 1] & 0x80)) s -= static_cast<__int128>(1) << (8 * len);
        if (!push_int(s)) return false;
        continue;
      }
      case 'G': {  // BINFLOAT is big-endian
        if (!have(8)) return truncated(8);
        std::uint64_t x = 0;
        for (int k = 0; k < 8; ++k) x = (x << 8) | b[pos_ + k];
        pos_ += 8;
        double d;
        std::memcpy(&d, &x, 8);
        if (!push_real(d)) return false;
        continue;
      }
      case 'N':
        if (!push_scalar(Kind::none, 0)) return false;
        continue;
      case 0x88:
      case 0x89:
        if (!push_scalar(Kind::boolean, op == 0x88)) return false;
        continue;
      case ']':
      case ')':
      case '}':
      case 0x8f:
        if (!push_container(op == ']' ? Kind::list : op == ')' ? Kind::tuple : op == '}' ? Kind::dict : Kind::set))
          return false;
        continue;
      case '(':
        if (stack_.size() + marks_.size() >= lim_.max_stack) return fail(op_at_, "too many marks");
        marks_.push_back(stack_.size());
        continue;
      case 'e':
      case 'u':
      case 0x90: {  // APPENDS / SETITEMS / ADDITEMS: the container sits just below the mark
        std::size_t m;
        if (!pop_mark(m)) return false;
        std::uint32_t target;
        if (m == 0) return underflow();
        Kind want = op == 'e' ? Kind::list : op == 'u' ? Kind::dict : Kind::set;
        if (!container_at(m - 1, want, op == 'e' ? "list" : op == 'u' ? "dict" : "set", target)) return false;
        if (op == 'u' && !check_keys(m, stack_.size())) return false;
        if (op == 0x90 && !check_hashable(m, stack_.size())) return false;
        if (!append_items(target, m)) return false;
        continue;
      }
      case 'a':
      case 's': {
        std::size_t k = op == 'a' ? 2 : 3;
        std::uint32_t target;
        if (stack_.size() < k) return underflow();
        std::size_t at = stack_.size() - k;
        if (!container_at(at, op == 'a' ? Kind::list : Kind::dict, op == 'a' ? "list" : "dict", target)) return false;
        if (op == 's' && !check_keys(at + 1, stack_.size())) return false;
        if (!append_items(target, at + 1)) return false;
        continue;
      }
      case 0x85:
      case 0x86:
      case 0x87: {
        std::size_t k = op - 0x84;
        if (stack_.size() - floor() < k) return underflow();
        if (!make_from(Kind::tuple, stack_.size() - k)) return false;
        continue;
      }
      case 't':
      case 'l':
      case 'd':
      case 0x91: {  // TUPLE / LIST / DICT / FROZENSET of the items above the mark
        std::size_t m;
        if (!pop_mark(m)) return false;
        if (op == 0x91 && !check_hashable(m, stack_.size())) return false;
        if (op == 'd') {  // the dict exists (and counts) before its keys are checked
          std::uint32_t id;
          if (!new_value(Kind::dict, id)) return false;
          doc_.values_[id].n = static_cast<std::uint32_t>(doc_.containers_.size());
          doc_.containers_.emplace_back().offset = op_at_;
          if (!check_keys(m, stack_.size()) || !append_items(id, m) || !push(id)) return false;
          continue;
        }
        if (!make_from(op == 't' ? Kind::tuple : op == 'l' ? Kind::list : Kind::set, m)) return false;
        continue;
      }
      case 0x80: {  // PROTO
        if (!have(1)) return truncated(1);
        unsigned v = b[pos_++];
        if (v > 5) return fail(op_at_, "unsupported pickle protocol " + std::to_string(v) + " (0-5 are known)");
        continue;
      }
      case 0x95: {  // FRAME: a hint for buffered readers; only its length is checked
        if (!have(8)) return truncated(8);
        std::uint64_t len = 0;
        for (int k = 0; k < 8; ++k) len |= std::uint64_t(b[pos_ + k]) << (8 * k);
        pos_ += 8;
        if (!have(len)) return truncated(len);
        continue;
      }
      case '.':
        if (stack_.size() <= floor()) return fail(op_at_, "STOP with nothing on the stack");
        if (!marks_.empty()) return fail(op_at_, "STOP inside an unclosed MARK");
        if (stack_.size() != 1)
          return fail(op_at_, "STOP with " + std::to_string(stack_.size() - 1) + " unused values on the stack");
        doc_.root_ = stack_.back();
        return true;
      case '0':  // POP: a value, or the mark when nothing is above it
        if (stack_.size() > floor()) stack_.pop_back();
        else if (!marks_.empty()) marks_.pop_back();
        else return underflow();
        continue;
      case '1': {
        std::size_t m;
        if (!pop_mark(m)) return false;
        stack_.resize(m);
        continue;
      }
      case '2':
        if (stack_.size() <= floor()) return underflow();
        if (!push(stack_.back())) return false;
        continue;
      // Python 2 str: decoded as text (pickle.loads' default encoding), bytes when not UTF-8.
      case 'T':
      case 'U': {
        std::string_view s;
        if (!read_sized(op == 'T' ? 4 : 1, op == 'T', s)) return false;
        if (!push_text(valid_utf8(s) ? Kind::str : Kind::bytes, s)) return false;
        continue;
      }
      case 'B':
      case 'C':
      case 0x8e:
      case 0x96: {
        std::string_view s;
        if (!read_sized(op == 'B' ? 4 : op == 'C' ? 1 : 8, false, s) || !push_text(Kind::bytes, s)) return false;
        continue;
      }
      default: {
        pickle_ops::OpInfo info = op_info(op);
        if (!info.name) return fail(op_at_, "unknown pickle opcode " + hex2(op));
        if (info.refused)
          return fail(op_at_, std::string("refusing pickle opcode ") + info.name + " (" + hex2(op) +
                                  "): it imports or calls code; a Flight Recorder dump is plain data");
        if (!step_text(op)) return false;
        continue;
      }
    }
  }
}

void PickleDoc::reset() {
  values_.clear();
  containers_.clear();
  segments_.clear();
  items_.clear();
  owned_.clear();
  big_.clear();
  chunk_ = 0;
  chunk_used_ = chunks_.empty() ? kChunk : 0;
  root_ = npos;
  ids_stable_ = true;
}

void PickleDoc::rollback(const Mark& m) {
  values_.resize(m.values);
  containers_.resize(m.containers);
  segments_.resize(m.segments);
  items_.resize(m.items);
  big_.resize(m.big);
  chunk_ = m.chunk;
  chunk_used_ = m.chunk_used;
}

void PickleDoc::append(std::uint32_t id, const std::uint32_t* first, const std::uint32_t* last) {
  auto n = static_cast<std::uint32_t>(last - first);
  Container& c = containers_[values_[id].n];
  auto start = static_cast<std::uint32_t>(items_.size());
  items_.insert(items_.end(), first, last);
  c.count += n;
  if (c.last != npos && segments_[c.last].start + segments_[c.last].len == start) {
    segments_[c.last].len += n;  // nothing came in between: extend the run
    return;
  }
  auto seg = static_cast<std::uint32_t>(segments_.size());
  segments_.push_back({start, n, npos});
  if (c.last == npos) c.first = seg;
  else segments_[c.last].next = seg;
  c.last = seg;
}

const char* PickleDoc::store(std::string_view s) {
  if (s.empty()) return "";
  if (s.size() > kChunk / 4) {
    big_.push_back(std::make_unique<char[]>(s.size()));
    std::memcpy(big_.back().get(), s.data(), s.size());
    return big_.back().get();
  }
  if (kChunk - chunk_used_ < s.size()) {
    if (!chunks_.empty() && chunk_ + 1 < chunks_.size()) ++chunk_;
    else {
      chunks_.push_back(std::make_unique<char[]>(kChunk));
      chunk_ = chunks_.size() - 1;
    }
    chunk_used_ = 0;
  }
  char* at = chunks_[chunk_].get() + chunk_used_;
  if (!s.empty()) std::memcpy(at, s.data(), s.size());
  chunk_used_ += s.size();
  return at;
}

core::Status decode_pickle_into(PickleDoc& doc, std::string_view data, std::string_view source,
                                const PickleLimits& limits) {
  return PickleDecoder(doc, data, source, limits).run();
}

core::Result<PickleDoc> decode_pickle(std::string_view data, std::string_view source, const PickleLimits& limits) {
  PickleDoc doc;
  if (core::Status st = decode_pickle_into(doc, data, source, limits); !st) return st;
  return doc;
}

bool looks_like_pickle(std::string_view d) {
  if (d.size() < 2) return false;
  unsigned char c0 = static_cast<unsigned char>(d[0]);
  if (c0 == 0x80) return static_cast<unsigned char>(d[1]) <= 5;
  // Protocol 0/1 dumps of a dict or list start with one of these.
  return c0 == '(' || c0 == '}' || c0 == ']';
}

}  // namespace ncdx::analyze
