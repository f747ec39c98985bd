#include "analyze/fr_pickle.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "analyze/fr_pickle_ops.h"
#include "analyze/fr_pickle_text.h"

namespace ncdx::analyze {
namespace {

using core::Status;
using nlohmann::json;
using pickle_ops::base64;
using pickle_ops::hex2;
using pickle_ops::op_info;
using pickle_ops::OpInfo;

enum class Kind : std::uint8_t { none, boolean, sint, uint, real, str, bytes, list, tuple, dict, set };

// Values live in one arena and refer to each other by index, so the memo holds references (a
// dict memoised while empty and filled later is seen filled everywhere), cycles cost nothing to
// represent, and everything is freed at once.
struct Node {
  Kind kind = Kind::none;
  bool b = false;
  std::int64_t i = 0;
  std::uint64_t u = 0;
  double d = 0;
  std::string s;                     // str (UTF-8) or bytes
  std::vector<std::uint32_t> items;  // list/tuple/set items; dict: key, value, key, value …
  std::size_t offset = 0;            // where it was made, for messages
};

class Unpickler {
 public:
  Unpickler(std::string_view in, std::string_view source, const PickleLimits& lim)
      : in_(in), source_(source), lim_(lim) {}

  core::Result<json> run() {
    if (in_.size() > lim_.max_bytes)
      return Status::bad_input(std::string(source_) + ": pickle of " + std::to_string(in_.size()) +
                               " bytes exceeds the limit of " + std::to_string(lim_.max_bytes));
    if (in_.empty()) return Status::bad_input(std::string(source_) + ": empty file, expected a pickle");
    std::optional<std::uint32_t> result;
    while (!result) {
      if (pos_ >= in_.size())
        return fail(in_.size(), "truncated: input ends before the STOP opcode");
      op_at_ = pos_;
      unsigned char op = static_cast<unsigned char>(in_[pos_++]);
      OpInfo info = op_info(op);
      if (!info.name) return fail(op_at_, "unknown pickle opcode " + hex2(op));
      if (info.refused)
        return fail(op_at_, std::string("refusing pickle opcode ") + info.name + " (" + hex2(op) +
                                "): it imports or calls code; a Flight Recorder dump is plain data");
      op_name_ = info.name;
      Status st = step(op, result);
      if (!st) return st;
    }
    if (pos_ != in_.size())
      return fail(pos_, std::to_string(in_.size() - pos_) + " unexpected bytes after STOP");
    json out;
    Status st = convert(*result, out, 0);
    if (!st) return st;
    return out;
  }

 private:
  Status fail(std::size_t at, const std::string& msg) const {
    return Status::bad_input(std::string(source_) + ": byte " + std::to_string(at) + ": " + msg);
  }
  Status truncated(std::size_t need) const {
    return fail(op_at_, std::string("truncated: ") + op_name_ + " needs " + std::to_string(need) +
                            " more bytes but the input ends at byte " + std::to_string(in_.size()));
  }
  bool have(std::size_t n) const { return n <= in_.size() - pos_; }

  template <class T>
  bool read_le(T& v, std::size_t n) {
    if (!have(n)) return false;
    std::uint64_t x = 0;
    for (std::size_t k = 0; k < n; ++k) x |= std::uint64_t(std::uint8_t(in_[pos_ + k])) << (8 * k);
    pos_ += n;
    v = static_cast<T>(x);
    return true;
  }
  // Protocol 0 arguments end with a newline.
  bool read_line(std::string_view& line) {
    std::size_t nl = in_.find('\n', pos_);
    if (nl == std::string_view::npos) return false;
    line = in_.substr(pos_, nl - pos_);
    pos_ = nl + 1;
    return true;
  }

  Status new_node(Node n, std::uint32_t& id) {
    if (nodes_.size() >= lim_.max_values)
      return fail(op_at_, "more than " + std::to_string(lim_.max_values) + " values");
    n.offset = op_at_;
    nodes_.push_back(std::move(n));
    id = static_cast<std::uint32_t>(nodes_.size() - 1);
    return Status::ok();
  }
  Status push_new(Node n) {
    std::uint32_t id;
    Status st = new_node(std::move(n), id);
    if (!st) return st;
    return push(id);
  }
  Status push(std::uint32_t id) {
    if (stack_.size() + marks_.size() >= lim_.max_stack)
      return fail(op_at_, "stack deeper than " + std::to_string(lim_.max_stack));
    stack_.push_back(id);
    return Status::ok();
  }
  std::size_t floor() const { return marks_.empty() ? 0 : marks_.back(); }
  Status underflow() const { return fail(op_at_, std::string(op_name_) + " on an empty stack"); }
  // Items above the innermost mark; pops the mark.
  Status pop_mark(std::vector<std::uint32_t>& items) {
    if (marks_.empty()) return fail(op_at_, std::string(op_name_) + " without a MARK");
    std::size_t m = marks_.back();
    marks_.pop_back();
    items.assign(stack_.begin() + static_cast<std::ptrdiff_t>(m), stack_.end());
    stack_.resize(m);
    return Status::ok();
  }
  Status memo_put(std::uint64_t idx) {
    if (stack_.size() <= floor()) return underflow();
    if (memo_.size() >= lim_.max_memo && !memo_.count(idx))
      return fail(op_at_, "more than " + std::to_string(lim_.max_memo) + " memo entries");
    memo_[idx] = stack_.back();
    return Status::ok();
  }
  Status memo_get(std::uint64_t idx) {
    auto it = memo_.find(idx);
    if (it == memo_.end()) return fail(op_at_, "memo index " + std::to_string(idx) + " was never stored");
    return push(it->second);
  }
  Status push_int(__int128 v) {
    Node n;
    if (v >= INT64_MIN && v <= INT64_MAX) {
      n.kind = Kind::sint;
      n.i = static_cast<std::int64_t>(v);
    } else if (v > 0 && v <= static_cast<__int128>(UINT64_MAX)) {
      n.kind = Kind::uint;
      n.u = static_cast<std::uint64_t>(v);
    } else {
      return fail(op_at_, "integer does not fit in 64 bits");
    }
    return push_new(std::move(n));
  }
  Status push_text(Kind k, std::string s) {
    if (k == Kind::str && !valid_utf8(s)) return fail(op_at_, "string is not valid UTF-8");
    Node n;
    n.kind = k;
    n.s = std::move(s);
    return push_new(std::move(n));
  }
  // Reads a length-prefixed payload of `width` length bytes.
  Status read_sized(std::size_t width, bool is_signed, std::string_view& payload) {
    std::uint64_t len = 0;
    if (!read_le(len, width)) return truncated(width);
    if (is_signed && width == 4 && (len & 0x80000000u)) return fail(op_at_, "negative length");
    if (!have(len)) return truncated(len);
    payload = in_.substr(pos_, len);
    pos_ += len;
    return Status::ok();
  }
  Status check_key(std::uint32_t k) const {
    Kind kk = nodes_[k].kind;
    if (kk == Kind::list || kk == Kind::dict || kk == Kind::set)
      return fail(op_at_, "unhashable dict key (a list, dict or set)");
    if (kk == Kind::tuple) return fail(op_at_, "tuple dict keys are not supported");
    return Status::ok();
  }
  Status container_at(std::size_t idx, Kind want, const char* what, std::uint32_t& id) const {
    if (idx < floor() || idx >= stack_.size()) return underflow();
    id = stack_[idx];
    if (nodes_[id].kind != want) return fail(op_at_, std::string(op_name_) + " target is not a " + what);
    return Status::ok();
  }
  Status add_pairs(std::uint32_t dict, const std::vector<std::uint32_t>& kv) {
    if (kv.size() % 2) return fail(op_at_, std::string(op_name_) + " with an odd number of items");
    for (std::size_t k = 0; k < kv.size(); k += 2) {
      Status st = check_key(kv[k]);
      if (!st) return st;
    }
    auto& items = nodes_[dict].items;
    items.insert(items.end(), kv.begin(), kv.end());
    return Status::ok();
  }
  Status check_hashable(const std::vector<std::uint32_t>& v) const {
    for (auto id : v) {
      Kind k = nodes_[id].kind;
      if (k == Kind::list || k == Kind::dict || k == Kind::set) return fail(op_at_, "unhashable set item");
    }
    return Status::ok();
  }
  Status make_seq(Kind k, std::vector<std::uint32_t> items) {
    Node n;
    n.kind = k;
    n.items = std::move(items);
    return push_new(std::move(n));
  }
  Status pop_n(std::size_t n, std::vector<std::uint32_t>& items) {
    if (stack_.size() - floor() < n) return underflow();
    items.assign(stack_.end() - static_cast<std::ptrdiff_t>(n), stack_.end());
    stack_.resize(stack_.size() - n);
    return Status::ok();
  }

  Status step(unsigned char op, std::optional<std::uint32_t>& result);
  Status step_text(unsigned char op);
  Status convert(std::uint32_t id, json& out, std::size_t depth);
  Status key_text(std::uint32_t id, std::string& out) const;

  std::string_view in_;
  std::string_view source_;
  const PickleLimits& lim_;
  std::size_t pos_ = 0, op_at_ = 0;
  const char* op_name_ = "";
  std::vector<Node> nodes_;
  std::vector<std::uint32_t> stack_;
  std::vector<std::size_t> marks_;
  std::unordered_map<std::uint64_t, std::uint32_t> memo_;
  std::vector<bool> on_path_;
  std::size_t produced_ = 0;
};

Status Unpickler::step(unsigned char op, std::optional<std::uint32_t>& result) {
  std::vector<std::uint32_t> items;
  std::string_view payload;
  switch (op) {
    case 0x80: {  // PROTO
      std::uint8_t v;
      if (!read_le(v, 1)) return truncated(1);
      if (v > 5) return fail(op_at_, "unsupported pickle protocol " + std::to_string(v) + " (0-5 are known)");
      return Status::ok();
    }
    case 0x95: {  // FRAME: a hint for buffered readers; only its length is checked
      std::uint64_t len;
      if (!read_le(len, 8)) return truncated(8);
      if (!have(len)) return truncated(len);
      return Status::ok();
    }
    case '.': {
      if (stack_.size() <= floor()) return fail(op_at_, "STOP with nothing on the stack");
      if (!marks_.empty()) return fail(op_at_, "STOP inside an unclosed MARK");
      if (stack_.size() != 1)
        return fail(op_at_, "STOP with " + std::to_string(stack_.size() - 1) + " unused values on the stack");
      result = stack_.back();
      return Status::ok();
    }
    case '(':
      if (stack_.size() + marks_.size() >= lim_.max_stack) return fail(op_at_, "too many marks");
      marks_.push_back(stack_.size());
      return Status::ok();
    case '0':  // POP: a value, or the mark when nothing is above it
      if (stack_.size() > floor()) stack_.pop_back();
      else if (!marks_.empty()) marks_.pop_back();
      else return underflow();
      return Status::ok();
    case '1': return pop_mark(items);
    case '2':
      if (stack_.size() <= floor()) return underflow();
      return push(stack_.back());
    case 'q': { std::uint8_t i; if (!read_le(i, 1)) return truncated(1); return memo_put(i); }
    case 'r': { std::uint32_t i; if (!read_le(i, 4)) return truncated(4); return memo_put(i); }
    case 0x94: return memo_put(memo_.size());
    case 'h': { std::uint8_t i; if (!read_le(i, 1)) return truncated(1); return memo_get(i); }
    case 'j': { std::uint32_t i; if (!read_le(i, 4)) return truncated(4); return memo_get(i); }
    case 'N': return push_new(Node{});
    case 0x88:
    case 0x89: { Node n; n.kind = Kind::boolean; n.b = op == 0x88; return push_new(std::move(n)); }
    case 'J': { std::uint32_t v; if (!read_le(v, 4)) return truncated(4); return push_int(static_cast<std::int32_t>(v)); }
    case 'K': { std::uint8_t v; if (!read_le(v, 1)) return truncated(1); return push_int(v); }
    case 'M': { std::uint16_t v; if (!read_le(v, 2)) return truncated(2); return push_int(v); }
    case 0x8a:
    case 0x8b: {  // LONG1 / LONG4: little-endian two's complement
      std::uint32_t n;
      std::size_t w = op == 0x8a ? 1 : 4;
      if (!read_le(n, w)) return truncated(w);
      if (w == 4 && (n & 0x80000000u)) return fail(op_at_, "negative length");
      if (!have(n)) return truncated(n);
      std::string_view b = in_.substr(pos_, n);
      pos_ += n;
      // Python writes the minimal length, so more than 9 bytes is always beyond 64 bits.
      if (n > 9) return fail(op_at_, "integer of " + std::to_string(n) + " bytes does not fit in 64 bits");
      unsigned __int128 x = 0;
      for (std::size_t k = 0; k < n; ++k) x |= static_cast<unsigned __int128>(std::uint8_t(b[k])) << (8 * k);
      __int128 v = static_cast<__int128>(x);
      if (n > 0 && (std::uint8_t(b[n - 1]) & 0x80)) v -= static_cast<__int128>(1) << (8 * n);
      return push_int(v);
    }
    case 'G': {  // BINFLOAT is big-endian
      if (!have(8)) return truncated(8);
      std::uint64_t x = 0;
      for (int k = 0; k < 8; ++k) x = (x << 8) | std::uint8_t(in_[pos_ + k]);
      pos_ += 8;
      Node n;
      n.kind = Kind::real;
      std::memcpy(&n.d, &x, 8);
      return push_new(std::move(n));
    }
    case 'X': { Status st = read_sized(4, false, payload); if (!st) return st; return push_text(Kind::str, std::string(payload)); }
    case 0x8c: { Status st = read_sized(1, false, payload); if (!st) return st; return push_text(Kind::str, std::string(payload)); }
    case 0x8d: { Status st = read_sized(8, false, payload); if (!st) return st; return push_text(Kind::str, std::string(payload)); }
    // Python 2 str: decoded as text (pickle.loads' default encoding), bytes when not UTF-8.
    case 'T':
    case 'U': {
      Status st = read_sized(op == 'T' ? 4 : 1, op == 'T', payload);
      if (!st) return st;
      return push_text(valid_utf8(payload) ? Kind::str : Kind::bytes, std::string(payload));
    }
    case 'B': { Status st = read_sized(4, false, payload); if (!st) return st; return push_text(Kind::bytes, std::string(payload)); }
    case 'C': { Status st = read_sized(1, false, payload); if (!st) return st; return push_text(Kind::bytes, std::string(payload)); }
    case 0x8e:
    case 0x96: { Status st = read_sized(8, false, payload); if (!st) return st; return push_text(Kind::bytes, std::string(payload)); }
    case ']': return make_seq(Kind::list, {});
    case ')': return make_seq(Kind::tuple, {});
    case '}': return make_seq(Kind::dict, {});
    case 0x8f: return make_seq(Kind::set, {});
    case 'l': { Status st = pop_mark(items); if (!st) return st; return make_seq(Kind::list, std::move(items)); }
    case 't': { Status st = pop_mark(items); if (!st) return st; return make_seq(Kind::tuple, std::move(items)); }
    case 0x85:
    case 0x86:
    case 0x87: {
      Status st = pop_n(op - 0x84, items);
      if (!st) return st;
      return make_seq(Kind::tuple, std::move(items));
    }
    case 0x91: {  // FROZENSET
      Status st = pop_mark(items);
      if (!st) return st;
      st = check_hashable(items);
      if (!st) return st;
      return make_seq(Kind::set, std::move(items));
    }
    case 'd': {
      Status st = pop_mark(items);
      if (!st) return st;
      std::uint32_t id;
      Node dict;
      dict.kind = Kind::dict;
      st = new_node(std::move(dict), id);
      if (!st) return st;
      st = add_pairs(id, items);
      if (!st) return st;
      return push(id);
    }
    case 'a': {
      std::uint32_t list;
      if (stack_.size() < 2) return underflow();
      Status st = container_at(stack_.size() - 2, Kind::list, "list", list);
      if (!st) return st;
      nodes_[list].items.push_back(stack_.back());
      stack_.pop_back();
      return Status::ok();
    }
    case 's': {
      std::uint32_t dict;
      if (stack_.size() < 3) return underflow();
      Status st = container_at(stack_.size() - 3, Kind::dict, "dict", dict);
      if (!st) return st;
      st = add_pairs(dict, {stack_[stack_.size() - 2], stack_.back()});
      if (!st) return st;
      stack_.resize(stack_.size() - 2);
      return Status::ok();
    }
    case 'e':
    case 'u':
    case 0x90: {  // APPENDS / SETITEMS / ADDITEMS: the container sits just below the mark
      Status st = pop_mark(items);
      if (!st) return st;
      std::uint32_t target;
      if (stack_.empty()) return underflow();
      Kind want = op == 'e' ? Kind::list : op == 'u' ? Kind::dict : Kind::set;
      st = container_at(stack_.size() - 1, want, op == 'e' ? "list" : op == 'u' ? "dict" : "set", target);
      if (!st) return st;
      if (op == 'u') return add_pairs(target, items);
      if (op == 0x90) {
        st = check_hashable(items);
        if (!st) return st;
      }
      auto& dst = nodes_[target].items;
      dst.insert(dst.end(), items.begin(), items.end());
      return Status::ok();
    }
    default:
      return step_text(op);
  }
}

// Protocol 0/1 opcodes whose arguments are text lines.
Status Unpickler::step_text(unsigned char op) {
  std::string_view line;
  if (!read_line(line))
    return fail(op_at_, std::string("truncated: ") + op_name_ + " argument has no terminating newline");
  switch (op) {
    case 'I':
    case 'L': {
      if (op == 'I' && (line == "00" || line == "01")) {  // protocol 0 booleans
        Node n;
        n.kind = Kind::boolean;
        n.b = line == "01";
        return push_new(std::move(n));
      }
      if (op == 'L' && !line.empty() && line.back() == 'L') line.remove_suffix(1);
      auto v = parse_decimal_int128(line);
      if (!v) return fail(op_at_, std::string(op_name_) + " argument is not a 64-bit decimal integer");
      return push_int(*v);
    }
    case 'F': {
      auto v = parse_python_float(line);
      if (!v) return fail(op_at_, "FLOAT argument is not a number");
      Node n;
      n.kind = Kind::real;
      n.d = *v;
      return push_new(std::move(n));
    }
    case 'S': {
      std::string out;
      if (!decode_string_repr(line, out)) return fail(op_at_, "STRING argument is not a quoted, escaped string");
      return push_text(valid_utf8(out) ? Kind::str : Kind::bytes, std::move(out));
    }
    case 'V': {
      std::string out;
      if (!decode_raw_unicode_escape(line, out)) return fail(op_at_, "UNICODE argument has a bad \\u escape");
      return push_text(Kind::str, std::move(out));
    }
    case 'p':
    case 'g': {
      auto v = parse_decimal_int128(line);
      if (!v || *v < 0 || *v > static_cast<__int128>(UINT64_MAX))
        return fail(op_at_, std::string(op_name_) + " argument is not a memo index");
      return op == 'p' ? memo_put(static_cast<std::uint64_t>(*v)) : memo_get(static_cast<std::uint64_t>(*v));
    }
    default:
      return fail(op_at_, "unknown pickle opcode " + hex2(op));
  }
}

Status Unpickler::key_text(std::uint32_t id, std::string& out) const {
  const Node& n = nodes_[id];
  switch (n.kind) {
    case Kind::str: out = n.s; return Status::ok();
    case Kind::sint: out = std::to_string(n.i); return Status::ok();
    case Kind::uint: out = std::to_string(n.u); return Status::ok();
    case Kind::boolean: out = n.b ? "true" : "false"; return Status::ok();
    case Kind::none: out = "null"; return Status::ok();
    case Kind::bytes: out = base64(n.s); return Status::ok();
    case Kind::real:
      if (std::isnan(n.d)) out = "NaN";
      else if (std::isinf(n.d)) out = n.d > 0 ? "Infinity" : "-Infinity";
      else out = json(n.d).dump();
      return Status::ok();
    default:
      return fail(n.offset, "dict key that is not a str, int, float, bool, None or bytes");
  }
}

Status Unpickler::convert(std::uint32_t id, json& out, std::size_t depth) {
  if (++produced_ > lim_.max_output)
    return fail(nodes_[id].offset, "more than " + std::to_string(lim_.max_output) +
                                       " values after expanding shared references");
  const Node& n = nodes_[id];
  switch (n.kind) {
    case Kind::none: out = nullptr; return Status::ok();
    case Kind::boolean: out = n.b; return Status::ok();
    case Kind::sint: out = n.i; return Status::ok();
    case Kind::uint: out = n.u; return Status::ok();
    case Kind::real: out = n.d; return Status::ok();
    case Kind::str: out = n.s; return Status::ok();
    case Kind::bytes: out = json{{"__bytes__", base64(n.s)}}; return Status::ok();
    default: break;
  }
  if (depth >= lim_.max_depth)
    return fail(n.offset, "containers nested deeper than " + std::to_string(lim_.max_depth));
  if (on_path_.size() < nodes_.size()) on_path_.resize(nodes_.size(), false);
  if (on_path_[id]) return fail(n.offset, "recursive structure: a container contains itself");
  on_path_[id] = true;
  Status st;
  if (n.kind == Kind::dict) {
    out = json::object();
    for (std::size_t k = 0; k + 1 < n.items.size() && st; k += 2) {
      std::string key;
      st = key_text(n.items[k], key);
      if (st) st = convert(n.items[k + 1], out[key], depth + 1);
    }
  } else {
    out = json::array();
    for (std::size_t k = 0; k < n.items.size() && st; ++k) {
      json v;
      st = convert(n.items[k], v, depth + 1);
      // Sets hold each value once, as in Python.
      if (st && (n.kind != Kind::set || std::find(out.begin(), out.end(), v) == out.end()))
        out.push_back(std::move(v));
    }
  }
  on_path_[id] = false;
  return st;
}

}  // namespace

core::Result<json> unpickle(std::string_view data, std::string_view source, const PickleLimits& limits) {
  return Unpickler(data, source, limits).run();
}

bool looks_like_pickle(std::string_view d) {
  if (d.size() < 2) return false;
  unsigned char c0 = static_cast<unsigned char>(d[0]);
  if (c0 == 0x80) return static_cast<unsigned char>(d[1]) <= 5;
  // Protocol 0/1 dumps of a dict or list start with one of these.
  return c0 == '(' || c0 == '}' || c0 == ']';
}

}  // namespace ncdx::analyze
