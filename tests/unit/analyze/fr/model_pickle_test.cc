// The fast paths (decode_pickle → parse_fr_doc, read_json_dump, no JSON tree in between)
// against the tree route (unpickle or core::parse_json → parse_fr_dump) on every fixture, stacks
// kept or dropped; the bounds on shared references; and reuse of one document across dumps.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "analyze/fr/pickle.h"
#include "analyze/fr/reader.h"
#include "core/json.h"
#include "support/test_paths.h"

namespace ncdx::analyze {
namespace {

using namespace std::string_literals;

const std::string kData = std::string(NCDX_TEST_DATA) + "/fr/";

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A torch-layout list of `n` BINGETs of memo 0 inside MARK … APPENDS.
std::string bingets(int n) {
  std::string s = "](";
  for (int i = 0; i < n; ++i) s += "h\x00"s;
  return s + "e";
}

TEST(FrModelPickle, SameModelAsTheJsonRouteOnEveryFixture) {
  int compared = 0;
  for (const auto& dir : std::filesystem::directory_iterator(kData)) {
    if (!dir.is_directory()) continue;
    for (const auto& f : std::filesystem::directory_iterator(dir.path())) {
      std::string bytes = slurp(f.path());
      if (!looks_like_pickle(bytes)) continue;
      auto raw = unpickle(bytes, f.path().string());
      auto doc = decode_pickle(bytes, f.path().string());
      ASSERT_EQ(raw.ok(), doc.ok()) << f.path();
      if (!raw) {
        EXPECT_EQ(raw.status().message(), doc.status().message());  // same refusal, same offset
        continue;
      }
      for (bool keep : {true, false}) {
        auto slow = parse_fr_dump(*raw, "x", 1, "pickle", keep);
        auto fast = parse_fr_doc(*doc, "x", 1, "pickle", keep);
        ASSERT_EQ(slow.ok(), fast.ok()) << f.path();
        if (!slow) continue;
        EXPECT_EQ(to_json(*slow).dump(), to_json(*fast).dump()) << f.path() << " keep_all_frames=" << keep;
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 40);
}

TEST(FrModelPickle, JsonWithoutATreeMatchesTheTree) {
  int compared = 0;
  for (const auto& dir : std::filesystem::directory_iterator(kData)) {
    if (!dir.is_directory()) continue;
    for (const auto& f : std::filesystem::directory_iterator(dir.path())) {
      std::string bytes = slurp(f.path());
      if (bytes.empty() || bytes[0] != '{') continue;
      auto tree = core::parse_json(bytes, "x");
      ASSERT_TRUE(tree) << f.path();
      auto slow = parse_fr_dump(*tree, "x", 2, "json");
      auto fast = parse_fr_bytes(bytes, "x", 2);
      ASSERT_TRUE(slow && fast) << f.path();
      EXPECT_EQ(to_json(*slow).dump(), to_json(*fast).dump()) << f.path();
      ++compared;
    }
  }
  EXPECT_GE(compared, 5);
  // Duplicate keys: the last one wins, as in the tree; malformed text: the tree's message.
  std::string dup = R"({"version": "2.4", "version": "2.10", "pg_status": {"1": {"last_enqueued_collective": "3"},
                       "0": {}, "1": {"last_enqueued_collective": 5}}, "entries": [{"state": "started", "state": 7}]})";
  auto slow = parse_fr_dump(*core::parse_json(dup, "d"), "d", 0, "json");
  auto fast = parse_fr_bytes(dup, "d", 0);
  ASSERT_TRUE(slow && fast);
  EXPECT_EQ(to_json(*slow).dump(), to_json(*fast).dump());
  EXPECT_EQ(fast->version, "2.10");
  for (std::string bad : {R"({"version": "2.4",})", R"({"a": [1, 2})", "{\"x\": 1} trailing"}) {
    auto t = core::parse_json(bad, "b");
    auto m = parse_fr_bytes(bad, "b", 0);
    ASSERT_FALSE(t || m) << bad;
    EXPECT_EQ(t.status().message(), m.status().message());
  }
}

TEST(FrModelPickle, DroppedStacksAreEmptyListsKeptOnesAreFull) {
  auto d = read_fr_path(kData + "hang_rank2/nccl_trace_rank_0");
  FrReadLimits all;
  all.keep_all_frames = true;
  auto k = read_fr_path(kData + "hang_rank2/nccl_trace_rank_0", all);
  ASSERT_TRUE(d && k);
  const auto& de = d->ranks[0].entries;
  const auto& ke = k->ranks[0].entries;
  ASSERT_EQ(de.size(), ke.size());
  std::size_t dropped = 0;
  for (std::size_t i = 0; i < de.size(); ++i) {
    ASSERT_TRUE(de[i].frames && ke[i].frames);
    ASSERT_FALSE(ke[i].frames->empty());
    if (de[i].frames->empty()) {
      ++dropped;
    } else {
      EXPECT_EQ(de[i].frames->size(), ke[i].frames->size());
    }
    if (!de[i].completed()) {
      EXPECT_FALSE(de[i].frames->empty()) << i;  // pending: its stack is quoted
    }
  }
  EXPECT_GT(dropped, 0u);
}

TEST(FrModelPickle, SharedReferencesCannotInflateTheModel) {
  // memo 0 = a frames list of 20000 references to one frame dict; 20000 entries share it: 4e8
  // frames if expanded. The reading budget turns that into bad input, not gigabytes.
  std::string frame = "}(X\x04\x00\x00\x00" "nameq\x01" "X\x01\x00\x00\x00" "fq\x02u"s;
  std::string p = "\x80\x02]q\x00("s + frame + "q\x03";
  for (int i = 0; i < 19999; ++i) p += "h\x03";
  p += "e0";  // the list is memo 0; nothing stays on the stack
  p += "}(X\x07\x00\x00\x00" "entries]("s;
  std::string entry = "}(X\x06\x00\x00\x00" "framesh\x00u"s;
  for (int i = 0; i < 20000; ++i) p += entry;
  p += "eu.";
  auto doc = decode_pickle(p, "bomb");
  ASSERT_TRUE(doc) << doc.status().message();
  auto m = parse_fr_doc(*doc, "bomb", 0, "pickle", true);
  ASSERT_FALSE(m);
  EXPECT_EQ(m.status().code(), core::Exit::bad_input);
  EXPECT_NE(m.status().message().find("after expanding shared references"), std::string::npos) << m.status().message();
  // Millions of references to one empty dict as entries: charged per entry, so bounded too.
  std::string q = "\x80\x02}q\x00" "0}(X\x07\x00\x00\x00" "entries"s + bingets(200'000) + "u.";
  auto doc2 = decode_pickle(q, "many");
  ASSERT_TRUE(doc2) << doc2.status().message();
  auto m2 = parse_fr_doc(*doc2, "many", 0, "pickle", false, 1'000'000);  // at most 31250 entries
  ASSERT_FALSE(m2);
  EXPECT_NE(m2.status().message().find("after expanding shared references"), std::string::npos);
}

TEST(FrModelPickle, OneDocumentServesManyDumps) {
  PickleDoc doc;
  std::string a = slurp(kData + "hang_rank2/nccl_trace_rank_0");
  std::string b = slurp(kData + "clean/nccl_trace_rank_1");
  ASSERT_TRUE(decode_pickle_into(doc, a, "a"));
  auto ma = parse_fr_doc(doc, "a", 0, "pickle");
  ASSERT_TRUE(decode_pickle_into(doc, b, "b"));
  auto mb = parse_fr_doc(doc, "b", 1, "pickle");
  auto fresh = parse_fr_bytes(b, "b", 1);
  ASSERT_TRUE(ma && mb && fresh);
  EXPECT_EQ(to_json(*mb).dump(), to_json(*fresh).dump());
  auto st = decode_pickle_into(doc, a.substr(0, a.size() / 2), "half");
  EXPECT_FALSE(st);
  EXPECT_EQ(doc.root(), PickleDoc::npos);  // a failed decode leaves no stale document
}

TEST(FrModelPickle, LargeSetsConvertInNLogN) {
  // A frozenset of 200000 distinct ints (a quadratic de-duplication would run for hours).
  std::string p = "(";
  for (int i = 0; i < 200000; ++i) {
    p += 'J';
    for (int k = 0; k < 4; ++k) p += static_cast<char>((i >> (8 * k)) & 0xff);
  }
  p += "\x91.";
  auto j = unpickle(p, "set");
  ASSERT_TRUE(j) << j.status().message();
  EXPECT_EQ(j->size(), 200000u);
}

}  // namespace
}  // namespace ncdx::analyze
