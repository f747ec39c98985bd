// JsonPull: tokens, escapes, skipping, grammar errors with lines, limits, buffer boundaries.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "analyze/timeline/json_pull.h"

namespace ncdx::analyze::timeline {
namespace {

std::string tokens(const std::string& text, std::string* err = nullptr, std::size_t max_string = JsonPull::kDefaultMaxString) {
  MemorySource src(text);
  JsonPull p(src, "t.json", max_string);
  std::string out;
  for (;;) {
    Tok t = p.next();
    switch (t) {
      case Tok::obj_begin: out += "{"; break;
      case Tok::obj_end: out += "}"; break;
      case Tok::arr_begin: out += "["; break;
      case Tok::arr_end: out += "]"; break;
      case Tok::key: out += "k:" + std::string(p.text()) + " "; break;
      case Tok::str: out += "s:" + std::string(p.text()) + " "; break;
      case Tok::num: out += "n:" + std::string(p.text()) + " "; break;
      case Tok::tru: out += "T "; break;
      case Tok::fals: out += "F "; break;
      case Tok::null: out += "N "; break;
      case Tok::end: return out;
      case Tok::error:
        if (err) *err = p.error().message();
        return out + "!";
    }
  }
}

TEST(JsonPull, Tokens) {
  EXPECT_EQ(tokens(R"({"a": [1, -2.5e3, true, false, null], "b": {"c": "d"}})"),
            "{k:a [n:1 n:-2.5e3 T F N ]k:b {k:c s:d }}");
  EXPECT_EQ(tokens("  [ ]  "), "[]");
  EXPECT_EQ(tokens("{}"), "{}");
}

TEST(JsonPull, Escapes) {
  EXPECT_EQ(tokens(R"(["a\"b", "\\", "\u00e9\n", "\ud83d\ude00"])"), "[s:a\"b s:\\ s:\xC3\xA9\n s:\xF0\x9F\x98\x80 ]");
  std::string err;
  tokens(R"(["\x"])", &err);
  EXPECT_NE(err.find("bad escape"), std::string::npos) << err;
}

TEST(JsonPull, BackslashRunsBeforeAQuote) {
  // An even run of backslashes leaves the quote unescaped; an odd run escapes it. skip() finds the
  // same string ends as next().
  EXPECT_EQ(tokens(R"(["a\\", "b\\\"c", "\\\\"])"), "[s:a\\ s:b\\\"c s:\\\\ ]");
  MemorySource src(R"([{"x": "a\\", "y": ["\\\"]"]}, 7])");
  JsonPull p(src, "t");
  ASSERT_EQ(p.next(), Tok::arr_begin);
  ASSERT_EQ(p.next(), Tok::obj_begin);
  ASSERT_TRUE(p.skip()) << p.error().message();
  ASSERT_EQ(p.next(), Tok::num);
  EXPECT_EQ(p.text(), "7");
}

TEST(JsonPull, BackslashAsTheLastByteOfTheBuffer) {
  // The first read fills the 1 MiB buffer; the backslash of an escaped quote is its last byte, so
  // the scan must read more before it can tell what the backslash escapes.
  const std::size_t chunk = 1u << 20;
  std::string body(chunk - 3, 'a');
  std::string text = "[\"" + body + "\\\"b\"]";
  ASSERT_EQ(text[chunk - 1], '\\');
  EXPECT_EQ(tokens(text), "[s:" + body + "\"b ]");
  std::string err;
  EXPECT_EQ(tokens("[\"" + body + "\\", &err), "[!");  // truncated right after the backslash
  EXPECT_NE(err.find("unterminated string"), std::string::npos) << err;
}

TEST(JsonPull, GrammarErrorsNameTheLine) {
  std::string err;
  EXPECT_EQ(tokens("{\n\"a\": 1\n\"b\": 2}", &err).back(), '!');
  EXPECT_EQ(err, "t.json:3: expected ',' or '}'");
  tokens("[1, 2", &err);
  EXPECT_NE(err.find("truncated"), std::string::npos) << err;
  tokens("{\"a\" 1}", &err);
  EXPECT_NE(err.find("expected ':'"), std::string::npos);
  tokens("[1] [2]", &err);
  EXPECT_NE(err.find("after the end"), std::string::npos);
  tokens("[tru]", &err);
  EXPECT_NE(err.find("literal"), std::string::npos);
  tokens("[1}", &err);
  EXPECT_NE(err.find("unbalanced '}'"), std::string::npos) << err;
  tokens("[\"abc", &err);
  EXPECT_NE(err.find("unterminated string"), std::string::npos);
  tokens("", &err);
  EXPECT_NE(err.find("truncated"), std::string::npos);
  tokens(std::string(600, '['), &err);
  EXPECT_NE(err.find("deeper than 512"), std::string::npos);
}

TEST(JsonPull, HugeStringIsAnError) {
  std::string err;
  std::string big = "[\"" + std::string(5000, 'x') + "\"]";
  EXPECT_EQ(tokens(big, &err, 1000).back(), '!');
  EXPECT_NE(err.find("longer than 1000"), std::string::npos) << err;
  EXPECT_EQ(tokens(big, nullptr, 10000).size(), 5000u + 5);
}

TEST(JsonPull, SkipJumpsOverContainers) {
  std::string text = R"({"skip": {"x": [1, {"y": "}]\"["}], "z": "q"}, "keep": 7})";
  MemorySource src(text);
  JsonPull p(src, "t");
  ASSERT_EQ(p.next(), Tok::obj_begin);
  ASSERT_EQ(p.next(), Tok::key);
  ASSERT_EQ(p.next(), Tok::obj_begin);
  ASSERT_TRUE(p.skip());
  ASSERT_EQ(p.next(), Tok::key);
  EXPECT_EQ(p.text(), "keep");
  ASSERT_EQ(p.next(), Tok::num);
  EXPECT_EQ(p.number(), 7);
  EXPECT_EQ(p.next(), Tok::obj_end);
  EXPECT_EQ(p.next(), Tok::end);
}

TEST(JsonPull, TokensAcrossBufferRefills) {
  // Strings, numbers and literals that straddle the 1 MiB buffer edge, and line counting.
  std::string text = "[";
  int n = 0;
  while (text.size() < (3u << 20)) {
    text += "\"" + std::string(n % 97, 'a') + "\\\"q\",\n12345.678,\ntrue,\n";
    ++n;
  }
  text += "null]";
  MemorySource src(text);
  JsonPull p(src, "big");
  ASSERT_EQ(p.next(), Tok::arr_begin);
  int strings = 0, nums = 0;
  for (;;) {
    Tok t = p.next();
    if (t == Tok::arr_end) break;
    ASSERT_NE(t, Tok::error) << p.error().message();
    if (t == Tok::str) {
      ASSERT_EQ(p.text().size(), static_cast<std::size_t>(strings % 97) + 2);
      ++strings;
    }
    if (t == Tok::num) {
      ASSERT_EQ(p.number(), 12345.678);
      ++nums;
    }
  }
  EXPECT_EQ(strings, n);
  EXPECT_EQ(nums, n);
  EXPECT_EQ(p.line(), 3 * n + 1);
}

// Hands out at most `step` bytes a read, so every token and separator meets the buffer's end.
class TrickleSource final : public ByteSource {
 public:
  TrickleSource(std::string_view data, std::size_t step) : data_(data), step_(step) {}
  std::size_t read(char* out, std::size_t cap) override {
    std::size_t n = std::min({cap, step_, data_.size() - off_});
    std::memcpy(out, data_.data() + off_, n);
    off_ += n;
    return n;
  }
  std::uint64_t bytes_in() const override { return off_; }
  core::Status status() const override { return {}; }

 private:
  std::string_view data_;
  std::size_t off_ = 0, step_;
};

std::string trickled(const std::string& text, std::size_t step, long long* line = nullptr) {
  TrickleSource src(text, step);
  JsonPull p(src, "t.json");
  std::string out;
  for (Tok t; (t = p.next()) != Tok::end;) {
    if (t == Tok::error) return out + "!" + p.error().message();
    out += std::to_string(static_cast<int>(t)) + ":" + std::string(t == Tok::num ? p.text() : t == Tok::key || t == Tok::str ? p.text() : "") + " ";
  }
  if (line) *line = p.line();
  return out;
}

TEST(JsonPull, SeparatorsAndKeysSplitAcrossReads) {
  // The ',' / ':' (and the one space after them) that next() takes with the token before, keys,
  // escapes and numbers, each cut at every byte by reads of 1..13 bytes: the same tokens as one read.
  std::string text =
      "{\"traceEvents\": [\n  {\"ph\": \"X\", \"ts\": 1700000000190.153, \"dur\":12.000,\"args\":{\"a\\\"b\":[1 ,2, {}],"
      "\"e\": \"\\u00e9\\\\\"}} ,\n  {\"name\" : \"x\",\"pid\":\t7 , \"n\": null}\n], \"z\": true}\n";
  long long whole_line = 0;
  std::string whole = trickled(text, 1u << 20, &whole_line);
  ASSERT_EQ(whole.find('!'), std::string::npos) << whole;
  EXPECT_NE(whole.find("4:a\"b "), std::string::npos) << whole;
  EXPECT_EQ(whole_line, 5);
  for (std::size_t step = 1; step <= 13; ++step) {
    long long line = 0;
    EXPECT_EQ(trickled(text, step, &line), whole) << step;
    EXPECT_EQ(line, whole_line) << step;
  }
  // Errors right after a separator taken early keep their message and line, whatever the reads.
  for (std::size_t step : {1u, 2u, 3u, 1u << 20}) {
    EXPECT_NE(trickled("{\"a\": 1,\n}", step).find("!t.json:2: expected a string key"), std::string::npos) << step;
    EXPECT_NE(trickled("[1, \n]", step).find("!t.json:2: expected a value, found ']'"), std::string::npos) << step;
    EXPECT_NE(trickled("{\"a\": 1,", step).find("truncated"), std::string::npos) << step;
    EXPECT_NE(trickled("{\"a\":", step).find("truncated"), std::string::npos) << step;
    EXPECT_NE(trickled("{\"a\":,}", step).find("!t.json:1: expected a value, found ','"), std::string::npos) << step;
  }
}

TEST(JsonPull, ShortStringsAroundTheSixteenByteLook) {
  // scan_string looks at the 16 bytes after a quote at once: strings of 0..40 bytes, with a
  // backslash escape before, at and after that window, as keys and values, whole and trickled.
  std::string text = "{", want;
  for (int n = 0; n <= 40; ++n) {
    for (int esc : {-1, 0, 14, 15, 16, 30}) {
      std::string body(static_cast<std::size_t>(n), 'a'), plain = body;
      if (esc >= 0 && esc < n) {
        body.replace(static_cast<std::size_t>(esc), 1, "\\\"");
        plain[static_cast<std::size_t>(esc)] = '"';
      }
      std::string key = "k" + std::to_string(n) + "_" + std::to_string(esc + 1) + body;
      text += (text.size() > 1 ? ", \"" : "\"") + key + "\": \"" + body + "\"";
      want += "4:k" + std::to_string(n) + "_" + std::to_string(esc + 1) + plain + " 5:" + plain + " ";
    }
  }
  text += "}";
  want = "0: " + want + "1: ";
  for (std::size_t step : {1u, 7u, 16u, 17u, 1u << 20}) EXPECT_EQ(trickled(text, step), want) << step;
}

TEST(JsonPull, BadNumberOnConversion) {
  MemorySource src("[1.2.3]");
  JsonPull p(src, "t");
  ASSERT_EQ(p.next(), Tok::arr_begin);
  ASSERT_EQ(p.next(), Tok::num);
  p.number();
  EXPECT_FALSE(p.error().is_ok());
  EXPECT_EQ(p.next(), Tok::error);
}

}  // namespace
}  // namespace ncdx::analyze::timeline
