// libFuzzer target: the streaming JSON pull reader. Differential against nlohmann's parser: a text
// nlohmann accepts must be walked to its end without error (the pull reader is laxer only on
// number spelling, raw control bytes and UTF-8, never stricter, except its 512 nesting limit).
// Also skip() at every container must land on the same end. And the in-buffer reader (SpanPull,
// span_pull.h) against JsonPull: where it reads an object to its end, the very same tokens, texts,
// number bits and bytes used (a guess of the next key on every other call, value() on every third);
// and its member walk (SpanPull::members) against JsonPull's next() + value() per member.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "analyze/timeline/json_pull.h"
#include "analyze/timeline/span_pull.h"

using namespace ncdx::analyze::timeline;

static bool walk(std::string_view in, bool skip_all) {
  MemorySource src(in);
  JsonPull p(src, "fuzz.json", 1 << 16);
  for (int guard = 0; guard < (1 << 22); ++guard) {
    Tok t = p.next();
    if (t == Tok::end) return true;
    if (t == Tok::error) return false;
    if (t == Tok::num) (void)p.number();
    if (skip_all && (t == Tok::obj_begin || t == Tok::arr_begin) && p.depth() > 1 && !p.skip()) return false;
    if (!p.error().is_ok()) return false;
  }
  std::abort();  // more tokens than bytes: a loop
}

// The token stream as text: kind, text and number bits per token; containers at odd steps skipped.
template <class P>
static bool record(P& p, Tok t, int n, std::string& out) {
  out += static_cast<char>('A' + static_cast<int>(t));
  if (t == Tok::key || t == Tok::str || t == Tok::num) out.append(p.text()).push_back('\0');
  if (t == Tok::num) {
    double d = p.number();
    out.append(reinterpret_cast<const char*>(&d), sizeof d);
  }
  if (n % 2 && (t == Tok::obj_begin || t == Tok::arr_begin) && !p.skip()) return false;
  return t != Tok::error && !p.failed();
}

static void span_vs_pull(std::string_view in) {
  static const KeyGuess guess("ph");
  SpanPull fast(in.data(), in.data() + in.size(), 1 << 16);
  std::string a, b;
  int n = 0;
  // Every third call is value() on both sides (SpanPull: its typed forms), the rest next().
  auto fast_next = [&](int i) {
    if (i % 3 == 2) return i % 2 ? fast.number_value() : fast.string_value();
    return i % 2 ? fast.next(guess) : fast.next();
  };
  while (!fast.done() && record(fast, fast_next(n), n, a)) ++n;
  if (!fast.done() || fast.failed()) return;  // it gave up: allowed
  MemorySource src(in);
  JsonPull slow(src, "fuzz.json", 1 << 16);
  for (int i = 0; i < n; ++i)
    if (!record(slow, i % 3 == 2 ? slow.value() : slow.next(), i, b)) std::abort();  // JsonPull refused what SpanPull read
  if (a != b || slow.offset() != fast.used()) std::abort();
}

// SpanPull::members() (the walk of an args object in one pass) against JsonPull's next() + value()
// per member, on the object at `in`'s start: where it reads it, the same members and bytes.
static void members_vs_pull(std::string_view in) {
  SpanPull fast(in.data(), in.data() + in.size(), 1 << 16);
  if (fast.next() != Tok::obj_begin) return;
  std::size_t opened = fast.used();
  std::string a, b;
  auto put = [](std::string& out, std::string_view k, Tok t, std::string_view v) {
    out.append(k).push_back('\0');
    out += static_cast<char>('A' + static_cast<int>(t));
    if (t == Tok::num || t == Tok::str) out.append(v).push_back('\0');
  };
  if (!fast.members([&](std::string_view k, Tok t, std::string_view v) { return put(a, k, t, v), true; })) {
    if (fast.used() != opened) std::abort();  // nothing consumed when it stops
    return;
  }
  MemorySource src(in);
  JsonPull slow(src, "fuzz.json", 1 << 16);
  if (slow.next() != Tok::obj_begin) std::abort();
  for (;;) {
    Tok k = slow.next();
    if (k == Tok::obj_end) break;
    if (k != Tok::key) std::abort();  // JsonPull refused what members() read
    std::string key(slow.text());
    Tok t = slow.value();
    if (t == Tok::error) std::abort();
    put(b, key, t, slow.text());
  }
  if (a != b || slow.offset() != fast.used()) std::abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > (1u << 16)) return 0;
  std::string_view in(reinterpret_cast<const char*>(data), size);
  span_vs_pull(in);
  // At every '{' (at most 64): the objects inside an input are where its edits are.
  int objects = 0;
  for (std::size_t at = in.find('{'); at != std::string_view::npos && objects < 64; at = in.find('{', at + 1), ++objects)
    members_vs_pull(in.substr(at));
  bool pull = walk(in, false);
  bool skipped = walk(in, true);
  // nlohmann's lexer takes a NUL byte as the end of input ("true\0garbage" is accepted as true),
  // the pull reader does not: compare only texts without one.
  if (in.find('\0') == std::string_view::npos && nlohmann::json::accept(in)) {
    int depth = 0, max_depth = 0;
    for (char c : in) {
      if (c == '[' || c == '{') max_depth = std::max(max_depth, ++depth);
      if (c == ']' || c == '}') --depth;
    }
    if (max_depth < 400 && (!pull || !skipped)) std::abort();
  }
  return 0;
}
