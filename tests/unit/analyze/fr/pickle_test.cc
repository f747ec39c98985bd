// The data-only pickle reader: what it accepts, what it refuses (by opcode and offset, never
// executing), limits, and that every truncation of a real dump is bad input, not a crash.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "analyze/fr/pickle.h"
#include "support/test_paths.h"

namespace ncdx::analyze {
namespace {

std::string slurp(const std::string& rel) {
  std::ifstream in(std::string(NCDX_TEST_DATA) + "/fr/" + rel, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

core::Result<nlohmann::json> up(std::string_view s, const PickleLimits& l = {}) { return unpickle(s, "t", l); }

TEST(FrPickle, ReadsTorchStyleDump) {
  auto j = up(slurp("hang_rank2/nccl_trace_rank_0"));
  ASSERT_TRUE(j) << j.status().message();
  EXPECT_EQ((*j)["version"], "2.10");
  EXPECT_EQ((*j)["pg_config"]["0"]["ranks"], "[0, 1, 2, 3]");
  const auto& e = (*j)["entries"][0];
  EXPECT_EQ(e["process_group"], nlohmann::json::array({"0", "default_pg"}));  // TUPLE2 → array
  EXPECT_EQ(e["time_created_ns"].get<long long>(), 1724779239946775119LL);   // LONG1, 8 bytes
  EXPECT_EQ(e["frames"][1]["filename"], "torch/distributed/c10d_logger.py");   // shared via BINGET
}

TEST(FrPickle, MemoIsAReferenceNotACopy) {
  // EMPTY_LIST BINPUT 0, BINGET 0, BININT1 1, APPEND, TUPLE2: the list was memoised empty and
  // filled afterwards through the fetched reference, so both tuple items show [1].
  std::string p = std::string("\x80\x02]q\x00h\x00K\x01\x61\x86.", 12);
  auto j = up(p);
  ASSERT_TRUE(j) << j.status().message();
  EXPECT_EQ(j->dump(), "[[1],[1]]");
}

TEST(FrPickle, RefusesCodeOpcodesByNameAndOffset) {
  struct Case { std::string bytes; const char* op; std::size_t at; };
  std::vector<Case> cases = {
      {"cos\nsystem\n(S'touch /tmp/ncdx_fr_pwned'\ntR.", "GLOBAL", 0},
      {std::string("\x80\x04\x95\x00\x00\x00\x00\x00\x00\x00\x00\x93", 12), "STACK_GLOBAL", 11},
      {"(K\x01o.", "OBJ", 3},
      {std::string("\x80\x02)K\x01\x81.", 7), "NEWOBJ", 5},
      {std::string("\x80\x02}(u}b.", 8), "BUILD", 6},
      {"N\x52.", "REDUCE", 1},
  };
  for (const auto& c : cases) {
    auto j = up(c.bytes);
    ASSERT_FALSE(j) << c.op;
    EXPECT_EQ(j.status().code(), core::Exit::bad_input);
    EXPECT_NE(j.status().message().find(std::string("refusing pickle opcode ") + c.op + " "), std::string::npos)
        << j.status().message();
    EXPECT_NE(j.status().message().find("byte " + std::to_string(c.at) + ":"), std::string::npos)
        << j.status().message();
  }
}

TEST(FrPickle, MaliciousFixturesNeverRun) {
  std::filesystem::remove("/tmp/ncdx_fr_pwned");
  for (const auto& f : std::filesystem::directory_iterator(std::string(NCDX_TEST_DATA) + "/fr/malicious")) {
    std::ifstream in(f.path(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    auto j = up(ss.str());
    ASSERT_FALSE(j) << f.path();
    EXPECT_EQ(j.status().code(), core::Exit::bad_input);
    EXPECT_NE(j.status().message().find("refusing pickle opcode"), std::string::npos) << j.status().message();
  }
  EXPECT_FALSE(std::filesystem::exists("/tmp/ncdx_fr_pwned"));
}

TEST(FrPickle, EveryTruncationIsBadInput) {
  for (const char* f : {"hang_rank2/nccl_trace_rank_0", "protocols/weird_p0.pkl", "protocols/weird_p5.pkl"}) {
    std::string full = slurp(f);
    ASSERT_GT(full.size(), 100u);
    // Every cut of the torch-style dump; a spread of cuts of the larger Python ones (each parse is
    // linear, so every cut of a 100 kB file would be quadratic).
    std::size_t step = full.size() < 20000 ? 1 : full.size() / 3000;
    for (std::size_t n = 0; n < full.size(); n += step) {
      auto j = up(std::string_view(full).substr(0, n));
      ASSERT_FALSE(j) << f << " cut at " << n;
      ASSERT_EQ(j.status().code(), core::Exit::bad_input);
    }
  }
}

TEST(FrPickle, RejectsMalformedStructure) {
  auto bad = [](std::string s, const char* why) {
    auto j = up(s);
    ASSERT_FALSE(j) << why;
    EXPECT_NE(j.status().message().find(why), std::string::npos) << j.status().message();
  };
  bad(std::string("\x80\x06N.", 4), "unsupported pickle protocol 6");
  bad("NN.", "unused values");
  bad("(N.", "unclosed MARK");
  bad(".", "nothing on the stack");
  bad("N.x", "unexpected bytes after STOP");
  bad("h\x05.", "memo index 5 was never stored");
  bad("Na.", "APPEND on an empty stack");
  bad("NK\x01" "a.", "APPEND target is not a list");
  bad("}]K\x01s.", "unhashable dict key");
  bad(std::string("\x8a\x0a\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01.", 13), "does not fit in 64 bits");
  bad(std::string("X\x02\x00\x00\x00\xc3\x28.", 8), "not valid UTF-8");
  bad("\xff", "unknown pickle opcode 0xff");
  bad(std::string("\x80\x04\x95\xff\x00\x00\x00\x00\x00\x00\x00N.", 13), "truncated");
  // A list that contains itself: fine in Python, impossible in JSON.
  bad(std::string("]q\x00h\x00\x61.", 7), "recursive structure");
}

TEST(FrPickle, LimitsHold) {
  PickleLimits l;
  l.max_depth = 3;
  EXPECT_FALSE(up("]]]]K\x01\x61\x61\x61\x61.", l));
  EXPECT_TRUE(up("]]K\x01\x61\x61.", l));
  l = PickleLimits{};
  l.max_stack = 100;
  auto j = up(std::string(200, 'N') + ".", l);
  ASSERT_FALSE(j);
  EXPECT_NE(j.status().message().find("stack deeper"), std::string::npos) << j.status().message();
  // Shared references expand when copied to JSON; the output bound stops a "billion laughs":
  // list_i = [list_(i-1), list_(i-1)] for 39 levels is 2^40 values.
  std::string bomb = std::string("]q\x00K\x01\x61\x30", 7);
  for (int i = 1; i < 40; ++i)
    bomb += "(h" + std::string(1, char(i - 1)) + "h" + std::string(1, char(i - 1)) + "lq" + std::string(1, char(i)) + "0";
  bomb += "h" + std::string(1, char(39)) + ".";
  PickleLimits l2;
  l2.max_output = 100000;
  auto j2 = up(bomb, l2);
  ASSERT_FALSE(j2);
  EXPECT_NE(j2.status().message().find("after expanding shared references"), std::string::npos)
      << j2.status().message();
  PickleLimits l3;
  l3.max_bytes = 10;
  EXPECT_FALSE(up(slurp("clean/nccl_trace_rank_0"), l3));
}

TEST(FrPickle, DataEdgeCases) {
  auto j = up(slurp("protocols/hand_long4.pkl"));
  ASSERT_TRUE(j);
  EXPECT_EQ(*j, -32255);
  j = up(slurp("protocols/hand_py2_strings.pkl"));
  ASSERT_TRUE(j);
  EXPECT_EQ((*j)[0], "abc\nAA");
  j = up(std::string("\x80\x02\x8a\x09\x00\x00\x00\x00\x00\x00\x00\x80\x00.", 14));  // 2**63
  ASSERT_TRUE(j) << j.status().message();
  EXPECT_EQ(j->get<unsigned long long>(), 9223372036854775808ull);
  EXPECT_TRUE(looks_like_pickle(std::string("\x80\x02}(", 4)));
  EXPECT_FALSE(looks_like_pickle("{\"version\""));
}

}  // namespace
}  // namespace ncdx::analyze
