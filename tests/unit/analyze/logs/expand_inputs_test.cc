// expand_inputs() over nested folders, globs, symlink loops, missing paths and the file limit.
#include <gtest/gtest.h>

#include <filesystem>

#include "analyze/logs/log_source.h"
#include "support/temp_dir.h"

using ncdx::analyze::expand_inputs;
using ncdx::core::Exit;
using ncdx::testing::TempDir;
namespace fs = std::filesystem;

namespace {
std::vector<std::string> paths(const ncdx::analyze::ExpandResult& r) {
  std::vector<std::string> out;
  for (auto& f : r.files) out.push_back(f.path);
  return out;
}
}  // namespace

TEST(ExpandInputs, NestedDirectoriesSortedAndDeduplicated) {
  TempDir d;
  d.write("ray/session_1/logs/worker-a-1-10.err", "x\n");
  d.write("ray/session_1/logs/raylet.out", "x\n");
  d.write("tr/run_ab/attempt_0/0/stderr.log", "x\n");
  d.write("tr/run_ab/attempt_0/1/stderr.log", "x\n");
  fs::create_directory_symlink(d.file("ray/session_1"), d.file("ray/session_latest"));
  auto r = expand_inputs({d.file("ray"), d.file("tr"), d.file("tr/run_ab/attempt_0/0/stderr.log")});
  EXPECT_TRUE(r.problems.empty());
  EXPECT_EQ(paths(r), (std::vector<std::string>{d.file("ray/session_1/logs/raylet.out"),
                                                d.file("ray/session_1/logs/worker-a-1-10.err"),
                                                d.file("tr/run_ab/attempt_0/0/stderr.log"),
                                                d.file("tr/run_ab/attempt_0/1/stderr.log")}));
}

TEST(ExpandInputs, Globs) {
  TempDir d;
  d.write("slurm-1.out", "x\n");
  d.write("slurm-2.out", "x\n");
  d.write("other.txt", "x\n");
  auto r = expand_inputs({d.file("slurm-*.out")});
  EXPECT_EQ(paths(r), (std::vector<std::string>{d.file("slurm-1.out"), d.file("slurm-2.out")}));
  auto none = expand_inputs({d.file("*.nothing")});
  EXPECT_TRUE(none.files.empty());
  ASSERT_EQ(none.problems.size(), 1u);
  EXPECT_EQ(none.problems[0].code(), Exit::not_found);
}

TEST(ExpandInputs, SymlinkLoopEndsWithAProblem) {
  TempDir d;
  d.write("a/b/log.txt", "x\n");
  fs::create_directory_symlink(d.file("a"), d.file("a/b/up"));  // a/b/up -> a: a loop
  fs::create_symlink(d.file("a/self"), d.file("a/self"));       // a link to itself
  auto r = expand_inputs({d.file("a")});
  EXPECT_EQ(paths(r), std::vector<std::string>{d.file("a/b/log.txt")});
  bool loop = false;
  for (auto& p : r.problems) loop |= p.message().find("symlink loop") != std::string::npos;
  EXPECT_TRUE(loop);
}

TEST(ExpandInputs, MissingPathAndStdin) {
  TempDir d;
  d.write("x.log", "x\n");
  auto r = expand_inputs({d.file("missing.log"), "-", d.file("x.log")});
  EXPECT_EQ(paths(r), (std::vector<std::string>{"-", d.file("x.log")}));
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0].code(), Exit::not_found);
  EXPECT_NE(r.problems[0].message().find("missing.log"), std::string::npos);
}

TEST(ExpandInputs, MaxFilesStopsWithAProblem) {
  TempDir d;
  for (int i = 0; i < 20; ++i) d.write("many/f" + std::to_string(i) + ".log", "x\n");
  auto r = expand_inputs({d.file("many")}, 5);
  EXPECT_EQ(r.files.size(), 5u);
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_NE(r.problems[0].message().find("more than 5 files"), std::string::npos);
}

TEST(ExpandInputs, UnreadableDirectoryIsReported) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads every directory; permission check cannot fail";
  TempDir d;
  d.write("locked/x.log", "x\n");
  fs::permissions(d.file("locked"), fs::perms::none);
  auto r = expand_inputs({d.file("locked")});
  fs::permissions(d.file("locked"), fs::perms::owner_all);
  EXPECT_TRUE(r.files.empty());
  ASSERT_EQ(r.problems.size(), 1u);
}
