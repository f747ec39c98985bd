// SpanPull (span_pull.h) against JsonPull: on every object it reads to the end, the same tokens,
// texts, numbers (bit for bit) and bytes used; on anything else it may give up, never accept
// something JsonPull rejects. Real-shaped trace events, then every truncation and many one-byte
// edits of them (deterministic).
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "analyze/timeline/json_pull.h"
#include "analyze/timeline/span_pull.h"

namespace ncdx::analyze::timeline {
namespace {

// One step of a walk: the token, its text, the bits of its number; containers whose token index
// is odd are skipped when `skip_odd`, so skip() is compared too.
// SpanPull's next(KeyGuess) is used with a guess from this list (rotating), so a guess that
// matches and one that does not are both compared.
const KeyGuess& guess_for(int index) {
  static const KeyGuess kGuesses[] = {KeyGuess("ph"),  KeyGuess("cat"), KeyGuess("name"), KeyGuess("pid"), KeyGuess("tid"),
                                      KeyGuess("ts"),  KeyGuess("dur"), KeyGuess("args"), KeyGuess("a"),   KeyGuess("b")};
  return kGuesses[index % 10];
}
// Every fifth call is value() (containers skipped whole), as SpanPull's typed number_value() or
// string_value() on the other side.
Tok next_of(JsonPull& p, int index) { return index % 5 == 4 ? p.value() : p.next(); }
Tok next_of(SpanPull& p, int index) {
  if (index % 5 == 4) return index % 10 == 4 ? p.number_value() : p.string_value();
  return index % 3 == 2 ? p.next() : p.next(guess_for(index));
}

template <class P>
bool step(P& p, int index, bool skip_odd, std::string& out) {
  Tok t = next_of(p, index);
  out += std::to_string(static_cast<int>(t)) + "|";
  if (t == Tok::error) return false;
  if (t == Tok::key || t == Tok::str || t == Tok::num) out += std::string(p.text()) + "|";
  if (t == Tok::num) {
    double d = p.number();
    if (p.failed()) return false;
    out += std::to_string(std::bit_cast<std::uint64_t>(d)) + "|";
  }
  if (skip_odd && index % 2 == 1 && (t == Tok::obj_begin || t == Tok::arr_begin)) {
    if (!p.skip()) return false;
    out += "skipped|";
  }
  return true;
}

struct Outcome {
  bool span_done = false;
};

// Walks `text` with both readers; fails the test on any difference where SpanPull finished.
Outcome compare(const std::string& text, bool skip_odd) {
  Outcome o;
  SpanPull fast(text.data(), text.data() + text.size(), 1 << 16);
  std::string fast_toks;
  int n = 0;
  while (!fast.done() && step(fast, n, skip_odd, fast_toks)) ++n;
  if (!fast.done() || fast.failed()) return o;  // gave up: allowed
  o.span_done = true;
  MemorySource src(text);
  JsonPull slow(src, "t.json", 1 << 16);
  std::string slow_toks;
  for (int i = 0; i < n; ++i) {
    if (!step(slow, i, skip_odd, slow_toks)) break;
  }
  EXPECT_EQ(slow_toks, fast_toks) << text;
  EXPECT_FALSE(slow.failed()) << slow.error().message() << "\n" << text;
  EXPECT_EQ(slow.offset(), fast.used()) << text;
  return o;
}

// SpanPull::members() on the object at every '{' of `text` against JsonPull's next() + value() per
// member: where it reads the object, the same keys, tokens, texts and bytes used, and JsonPull
// takes it without error; where it does not, nothing is consumed. Returns how many it read.
int compare_members(const std::string& text) {
  int read = 0;
  for (std::size_t at = text.find('{'); at != std::string::npos; at = text.find('{', at + 1)) {
    std::string_view obj(text.data() + at, text.size() - at);
    SpanPull fast(obj.data(), obj.data() + obj.size(), 1 << 16);
    if (fast.next() != Tok::obj_begin) continue;
    std::string fast_toks;
    bool ok = fast.members([&](std::string_view k, Tok t, std::string_view v) {
      fast_toks += std::string(k) + "|" + std::to_string(static_cast<int>(t)) + "|" +
                   (t == Tok::num || t == Tok::str ? std::string(v) : "") + "|";
      return true;
    });
    if (!ok) {
      EXPECT_EQ(fast.used(), 1u) << obj;
      continue;
    }
    ++read;
    MemorySource src(obj);
    JsonPull slow(src, "t.json", 1 << 16);
    std::string slow_toks;
    EXPECT_EQ(slow.next(), Tok::obj_begin);
    for (;;) {
      Tok k = slow.next();
      if (k != Tok::key) {
        EXPECT_EQ(k, Tok::obj_end) << slow.error().message() << "\n" << obj;
        break;
      }
      std::string key(slow.text());
      Tok t = slow.value();
      slow_toks += key + "|" + std::to_string(static_cast<int>(t)) + "|" +
                   (t == Tok::num || t == Tok::str ? std::string(slow.text()) : "") + "|";
    }
    EXPECT_EQ(slow_toks, fast_toks) << obj;
    EXPECT_EQ(slow.offset(), fast.used()) << obj;
    EXPECT_TRUE(fast.done() && !fast.failed()) << obj;
  }
  return read;
}

const std::vector<std::string> kSeeds = {
    R"({"ph": "X", "cat": "kernel", "name": "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas", "pid": 0, "tid": 7, "ts": 1700000000205.153, "dur": 198.998, "args": {"External id": 3, "queued": 0, "device": 0, "context": 1, "stream": 7, "correlation": 2, "registers per thread": 168, "shared memory": 213248, "blocks per SM": 1.0, "warps per SM": 12.0, "grid": [132, 1, 1], "block": [384, 1, 1], "est. achieved occupancy %": 19}},)",
    R"({"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": 1, "tid": 1, "ts": 1100, "dur": 5,
     "args": {"Collective name": "allreduce", "In msg nelems": 1024, "Group size": 4, "dtype": "BFloat16", "Process Group Name": "0", "Concrete Inputs": ["", "", "2", "0"], "Input Dims": [[65536], []]}}
)",
    R"({"ph": "f", "id": 1, "pid": 0, "tid": 7, "ts": 1700000000000.000, "cat": "ac2g", "name": "ac2g", "bp": "e"})",
    "{\"a\":true,\"b\":false,\"c\":null,\"d\":-0.5,\"e\":[],\"f\":{},\"g\":[{\"h\":[[1],[2,{\"i\":\"}][{\"}]]}],\"j\"\t:\r\n\"k\"}",
    R"({"esc": "a\"b", "n": 12345678901234567890123, "x": 1E400})",
};

TEST(SpanPull, SameTokensAsJsonPullOnTraceEvents) {
  std::string done;
  for (const std::string& s : kSeeds)
    for (bool skip_odd : {false, true}) done += compare(s, skip_odd).span_done ? '1' : '0';
  // Read to the end unless a token has an escape or a number needs from_chars (the fifth).
  EXPECT_EQ(done, "1111111100");
}

TEST(SpanPull, MembersAsNextAndValue) {
  std::string read;
  for (const std::string& s : kSeeds) read += std::to_string(compare_members(s));
  // Objects read per seed: the kernel event and its args; the comms event and its args; the flow
  // event; the four objects of the fourth; none of the fifth (a string with an escape).
  EXPECT_EQ(read, "22140");
  // A member walk that stops is the caller's: nothing consumed, the object still readable.
  std::string text = R"({"a": 1, "correlation": 7, "b": [1, {"c": "}"}]})";
  SpanPull p(text.data(), text.data() + text.size(), 1 << 16);
  ASSERT_EQ(p.next(), Tok::obj_begin);
  EXPECT_FALSE(p.members([](std::string_view k, Tok, std::string_view) { return k != "correlation"; }));
  EXPECT_EQ(p.used(), 1u);
  std::string seen;
  EXPECT_TRUE(p.members([&](std::string_view k, Tok t, std::string_view v) {
    seen += std::string(k) + "=" + std::to_string(static_cast<int>(t)) + ":" + std::string(v) + ";";
    return true;
  }));
  EXPECT_EQ(seen, "a=6:1;correlation=6:7;b=2:;");
  EXPECT_TRUE(p.done());
  EXPECT_EQ(p.used(), text.size());
}

TEST(SpanPull, KeyGuessMatchesOnlyTheWholeKey) {
  std::string text = R"({"ph": 1, "phase": 2, "ph":3, "cat": 4})";
  SpanPull p(text.data(), text.data() + text.size(), 1 << 16);
  KeyGuess ph("ph");
  EXPECT_TRUE(ph.matches(text.data() + 1));
  EXPECT_FALSE(ph.matches(text.data() + 10));  // "phase": not "ph"
  EXPECT_FALSE(KeyGuess("a_key_far_too_long").matches(text.data() + 1));
  ASSERT_EQ(p.next(), Tok::obj_begin);
  ASSERT_EQ(p.next(ph), Tok::key);
  EXPECT_EQ(p.text(), "ph");
  ASSERT_EQ(p.next(ph), Tok::num);  // a value is due: the guess is not looked at
  ASSERT_EQ(p.next(ph), Tok::key);
  EXPECT_EQ(p.text(), "phase");
  ASSERT_EQ(p.next(), Tok::num);
  ASSERT_EQ(p.next(ph), Tok::key);  // "ph":3 has no space: read, not matched, same token
  EXPECT_EQ(p.text(), "ph");
  ASSERT_EQ(p.next(), Tok::num);
  EXPECT_EQ(p.text(), "3");
  ASSERT_EQ(p.next(KeyGuess("cat")), Tok::key);
  EXPECT_EQ(p.text(), "cat");
  ASSERT_EQ(p.next(), Tok::num);
  EXPECT_EQ(p.text(), "4");
  EXPECT_EQ(p.next(), Tok::obj_end);
  EXPECT_TRUE(p.done());
  EXPECT_EQ(p.used(), text.size());
}

TEST(SpanPull, GivesUpOnWhatItDoesNotTake) {
  auto gives_up = [](const std::string& text) {
    SpanPull p(text.data(), text.data() + text.size(), 1 << 16);
    std::string toks;
    int n = 0;
    while (!p.done() && step(p, n, false, toks)) ++n;
    return p.failed();
  };
  EXPECT_TRUE(gives_up(R"({"a": "b\"c"})"));        // an escape in a token
  EXPECT_TRUE(gives_up(R"({"a": 1e3})"));           // a number for from_chars
  EXPECT_TRUE(gives_up(R"({"a": 12)"));             // the bytes end inside the value
  EXPECT_TRUE(gives_up(R"({"a" 1})"));              // grammar
  EXPECT_TRUE(gives_up(std::string(40, '[')));     // deeper than kDepth
  EXPECT_FALSE(gives_up(R"({"a": [1, {"b": null}]})"));
}

TEST(SpanPull, EditedEventsNeverDiffer) {
  std::uint64_t x = 2026;
  const std::string alphabet = "\"{}[]:,\\ \n0123456789.-+eEtfnulrsa\x01\xff";
  for (const std::string& seed : kSeeds) {
    for (std::size_t cut = 0; cut <= seed.size(); ++cut)
      for (bool skip_odd : {false, true}) compare(seed.substr(0, cut), skip_odd);
    for (std::size_t cut = 0; cut <= seed.size(); ++cut) compare_members(seed.substr(0, cut));
    for (int k = 0; k < 3000; ++k) {
      std::string s = seed;
      for (int edits = 1 + k % 3; edits > 0; --edits) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        std::size_t at = (x >> 20) % s.size();
        char c = alphabet[(x >> 45) % alphabet.size()];
        switch ((x >> 60) % 3) {
          case 0: s[at] = c; break;
          case 1: s.insert(at, 1, c); break;
          default: s.erase(at, 1); break;
        }
        if (s.empty()) s = "{";
      }
      compare(s, k % 2 == 1);
      compare_members(s);
    }
  }
}

}  // namespace
}  // namespace ncdx::analyze::timeline
