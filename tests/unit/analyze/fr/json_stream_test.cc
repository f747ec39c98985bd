// The streamed JSON reader (fr/json_stream.h) against the tree route (core::parse_json →
// parse_fr_dump) where streaming changes the order things are seen in: entries before the keys
// that give the first warnings, more warnings than the cap, two "entries" keys, stacks in JSON,
// and the same dump read from a file in pieces.
#include "analyze/fr/json_stream.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/json.h"
#include "support/temp_dir.h"

namespace ncdx::analyze {
namespace {

void expect_same_as_tree(const std::string& text, bool keep_all_frames = false) {
  auto tree = core::parse_json(text, "t.json");
  ASSERT_TRUE(tree);
  auto slow = parse_fr_dump(*tree, "t.json", 1, "json", keep_all_frames);
  auto fast = parse_fr_bytes(text, "t.json", 1, keep_all_frames);
  ASSERT_EQ(slow.ok(), fast.ok()) << text.substr(0, 200);
  if (!slow) {
    EXPECT_EQ(slow.status().message(), fast.status().message());
    return;
  }
  EXPECT_EQ(to_json(*slow).dump(), to_json(*fast).dump()) << text.substr(0, 200);
}

std::string entry(int rid, const std::string& pg, const std::string& state, bool frames) {
  std::string e = R"({"record_id": )" + std::to_string(rid) + R"(, "process_group": [")" + pg +
                  R"(", "d"], "state": ")" + state + R"(", "profiling_name": "nccl:all_reduce", "entries": [1])";
  if (frames) e += R"(, "frames": [{"name": "f)" + std::to_string(rid) + R"(", "filename": "a.py", "line": 3}])";
  return e + "}";
}

}  // namespace

TEST(FrJsonStream, SameAsTheTreeWhereOrderMatters) {
  // Entries first (dump_json writes keys sorted), each with a warning, 30 of them: the cap must
  // keep pg_config's and version's warnings first, as a whole document gives them.
  std::string es;
  for (int i = 0; i < 30; ++i) es += std::string(i ? ", " : "") + R"({"record_id": "x)" + std::to_string(i) + R"("})";
  expect_same_as_tree(R"({"entries": [)" + es + R"(], "pg_config": {"0": {"name": 5}}, "version": "9.9"})");
  // Two "entries" keys: the last wins; a later non-list one is refused; a null one means none.
  expect_same_as_tree(R"({"version": "2.10", "entries": [{"record_id": 1}], "entries": [{"record_id": 2}, 3]})");
  expect_same_as_tree(R"({"version": "2.10", "entries": [{"record_id": 1}], "entries": {"a": 1}})");
  expect_same_as_tree(R"({"version": "2.10", "entries": [{"record_id": 1}], "entries": null})");
  expect_same_as_tree(R"({"version": "2.10", "entries": [1, "x", null]})");
  expect_same_as_tree(R"({"version": "2.10", "entries": []})");
  expect_same_as_tree(R"({"version": "2.10", "entries": [[{"record_id": 1}]], "x": {"entries": [5]}})");
  // Stacks: a completed entry keeps its stack only while it is its group's newest.
  std::string with;
  int rid[] = {5, 3, 9, 9, 2, 7};
  for (int i = 0; i < 6; ++i)
    with += std::string(i ? ", " : "") + entry(rid[i], i % 2 ? "1" : "0", i == 1 ? "started" : "completed", true);
  for (bool keep : {false, true}) expect_same_as_tree(R"({"version": "2.10", "entries": [)" + with + "]}", keep);
}

TEST(FrJsonStream, DeepNestingAndBadTextAreBadInput) {
  PickleDoc doc;
  auto deep = read_json_dump("{\"a\": " + std::string(300, '[') + std::string(300, ']') + "}", "d.json", 0, false, doc);
  ASSERT_FALSE(deep);
  EXPECT_EQ(deep.status().message(), "d.json: JSON nested deeper than 256 levels");
  auto ok = read_json_dump("{\"version\": \"2.10\", \"a\": " + std::string(250, '[') + std::string(250, ']') + "}",
                           "d.json", 0, false, doc);
  EXPECT_TRUE(ok);
  EXPECT_FALSE(read_json_dump(R"({"entries": [{"record_id": 1}, )", "t.json", 0, false, doc));
}

TEST(FrJsonStream, AFileReadInPiecesGivesTheSameModel) {
  // Larger than one 1 MiB piece, so items cross piece boundaries.
  std::string es;
  for (int i = 0; i < 8000; ++i) es += std::string(i ? ", " : "") + entry(i, std::to_string(i % 3), "completed", i % 7 == 0);
  std::string text = R"({"version": "2.10", "entries": [)" + es + R"(], "pg_status": {"0": {"last_enqueued_collective": "4"}}})";
  ASSERT_GT(text.size(), 1u << 20);
  // A directory of its own: a fixed name in /tmp collided with a second test run at the same time.
  testing::TempDir tmp;
  std::filesystem::path path = tmp.write("dump.json", text);
  PickleDoc doc;
  auto from_file = read_json_dump_file(path.string(), 256u << 20, 1, false, doc);
  auto from_text = read_json_dump(text, path.string(), 1, false, doc);
  ASSERT_TRUE(from_file && from_text);
  EXPECT_EQ(to_json(*from_file).dump(), to_json(*from_text).dump());
  EXPECT_EQ(from_file->entries.size(), 8000u);
  auto small = read_json_dump_file(path.string(), 1000, 1, false, doc);  // grew past the limit
  ASSERT_FALSE(small);
  EXPECT_EQ(small.status().code(), core::Exit::bad_input);
  expect_same_as_tree(text);
}

}  // namespace ncdx::analyze
