// The follower against real files written by a writer thread: growth, new files in a folder,
// truncation, rotation, long lines, the stop flag and the idle timeout. The writer waits on what
// the follower has delivered (no sleeps-as-synchronisation, no timed assertions).
#include <gtest/gtest.h>

#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include "analyze/logs/tail.h"
#include "support/temp_dir.h"

using ncdx::analyze::FollowedLine;
using ncdx::analyze::Follower;
using ncdx::analyze::FollowOptions;
using ncdx::testing::TempDir;

namespace {

struct Seen {
  std::mutex m;
  std::condition_variable cv;
  std::vector<std::tuple<std::string, long long, std::string, bool>> lines;

  void add(const FollowedLine& l) {
    std::lock_guard<std::mutex> g(m);
    lines.emplace_back(l.path, l.line_number, std::string(l.text), l.truncated);
    cv.notify_all();
  }
  void wait_for(std::size_t n) {
    std::unique_lock<std::mutex> g(m);
    cv.wait(g, [&] { return lines.size() >= n; });
  }
  std::vector<std::string> texts() {
    std::lock_guard<std::mutex> g(m);
    std::vector<std::string> out;
    for (auto& l : lines) out.push_back(std::get<2>(l));
    return out;
  }
};

void append(const std::string& path, const std::string& s) {
  std::ofstream f(path, std::ios::binary | std::ios::app);
  f << s;
}

FollowOptions fast(const std::atomic<bool>* stop) {
  FollowOptions o;
  o.poll_seconds = 0.01;
  o.stop = stop;
  return o;
}

}  // namespace

TEST(Follower, DeliversAppendedLinesInOrder) {
  TempDir d;
  std::string log = d.write("rank0.log", "old line\n");
  std::atomic<bool> stop{false};
  Seen seen;
  std::thread writer([&] {
    seen.wait_for(1);
    for (int i = 0; i < 50; ++i) append(log, "line " + std::to_string(i) + "\n");
    append(log, "partial ");  // completed later: must come out as one line
    append(log, "then done\r\n");
    seen.wait_for(52);
    stop = true;
  });
  Follower(std::vector<std::string>{log}, fast(&stop)).run([&](const FollowedLine& l) { seen.add(l); });
  writer.join();
  auto t = seen.texts();
  ASSERT_EQ(t.size(), 52u);
  EXPECT_EQ(t[0], "old line");
  EXPECT_EQ(t[50], "line 49");
  EXPECT_EQ(t[51], "partial then done");
  EXPECT_EQ(std::get<1>(seen.lines[51]), 52);
}

TEST(Follower, NewFilesInADirectory) {
  TempDir d;
  std::filesystem::create_directories(d.file("logs"));
  std::atomic<bool> stop{false};
  Seen seen;
  std::thread writer([&] {
    d.write("logs/node1/rank3.log", "hello from 3\n");
    seen.wait_for(1);
    d.write("logs/node2/rank4.log", "hello from 4\n");
    seen.wait_for(2);
    stop = true;
  });
  Follower(std::vector<std::string>{d.file("logs")}, fast(&stop)).run([&](const FollowedLine& l) { seen.add(l); });
  writer.join();
  ASSERT_EQ(seen.lines.size(), 2u);
  EXPECT_EQ(std::get<0>(seen.lines[1]), d.file("logs/node2/rank4.log"));
  EXPECT_EQ(std::get<2>(seen.lines[1]), "hello from 4");
}

TEST(Follower, TruncationRestartsFromTheStart) {
  TempDir d;
  std::string log = d.write("t.log", "aaaaaaaaaa 1\naaaaaaaaaa 2\naaaaaaaaaa 3\n");
  std::atomic<bool> stop{false};
  Seen seen;
  std::thread writer([&] {
    seen.wait_for(3);
    { std::ofstream f(log, std::ios::trunc); f << "new 1\nnew 2\n"; }  // copytruncate-style, shorter
    seen.wait_for(5);
    stop = true;
  });
  Follower(std::vector<std::string>{log}, fast(&stop)).run([&](const FollowedLine& l) { seen.add(l); });
  writer.join();
  ASSERT_EQ(seen.lines.size(), 5u);
  EXPECT_EQ(std::get<2>(seen.lines[3]), "new 1");
  EXPECT_EQ(std::get<1>(seen.lines[3]), 1);  // numbering starts again
  EXPECT_EQ(std::get<2>(seen.lines[4]), "new 2");
}

TEST(Follower, RotationFinishesOldFileThenReadsNewOne) {
  TempDir d;
  std::string log = d.write("r.log", "before\n");
  std::atomic<bool> stop{false};
  Seen seen;
  std::thread writer([&] {
    seen.wait_for(1);
    std::rename(log.c_str(), d.file("r.log.1").c_str());
    append(d.file("r.log.1"), "late write to old\n");
    d.write("r.log", "after rotation\n");
    seen.wait_for(3);
    stop = true;
  });
  Follower(std::vector<std::string>{log}, fast(&stop)).run([&](const FollowedLine& l) { seen.add(l); });
  writer.join();
  EXPECT_EQ(seen.texts(), (std::vector<std::string>{"before", "late write to old", "after rotation"}));
  EXPECT_EQ(std::get<1>(seen.lines[2]), 1);
}

TEST(Follower, LongLinesAreCutAndFlagged) {
  TempDir d;
  std::string log = d.write("l.log", "");
  std::atomic<bool> stop{false};
  Seen seen;
  FollowOptions o = fast(&stop);
  o.max_line = 8;
  std::thread writer([&] {
    append(log, "0123456789abcdef");
    seen.wait_for(1);  // cut before its newline arrives
    append(log, "ghij\nshort\n");
    seen.wait_for(2);
    stop = true;
  });
  Follower(std::vector<std::string>{log}, o).run([&](const FollowedLine& l) { seen.add(l); });
  writer.join();
  ASSERT_EQ(seen.lines.size(), 2u);
  EXPECT_EQ(std::get<2>(seen.lines[0]), "01234567");
  EXPECT_TRUE(std::get<3>(seen.lines[0]));
  EXPECT_EQ(std::get<2>(seen.lines[1]), "short");
  EXPECT_FALSE(std::get<3>(seen.lines[1]));
}

TEST(Follower, StopsWhenIdleAndFlushesTheLastPartialLine) {
  TempDir d;
  std::string log = d.write("i.log", "complete\nno newline");
  FollowOptions o;
  o.poll_seconds = 0.01;
  o.idle_seconds = 0.05;
  Seen seen;
  Follower(std::vector<std::string>{log}, o).run([&](const FollowedLine& l) { seen.add(l); });
  EXPECT_EQ(seen.texts(), (std::vector<std::string>{"complete", "no newline"}));
}

TEST(Follower, FromEndSkipsExistingContent) {
  TempDir d;
  std::string log = d.write("e.log", "existing\n");
  FollowOptions o;
  o.from_start = false;
  Follower f(std::vector<std::string>{log}, o);
  Seen seen;
  auto cb = [&](const FollowedLine& l) { seen.add(l); };
  f.poll(cb);
  append(log, "new\n");
  f.poll(cb);
  EXPECT_EQ(seen.texts(), std::vector<std::string>{"new"});
  // A file named before it exists is read from its first byte once it appears.
  Follower later(std::vector<std::string>{d.file("later.log")}, o);
  later.poll(cb);
  d.write("later.log", "first\n");
  later.poll(cb);
  EXPECT_EQ(seen.texts(), (std::vector<std::string>{"new", "first"}));
}

TEST(Follower, CompressedFilesAreReadOnceNotFollowed) {
  TempDir d;
  // "a\nb\n" gzip-compressed (gzip -n), as a rotated log beside the live one.
  const unsigned char gz[] = {0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x4b, 0xe4,
                              0x4a, 0xe2, 0x02, 0x00, 0x97, 0x2a, 0x57, 0x18, 0x04, 0x00, 0x00, 0x00};
  d.write("logs/old.log.1.gz", std::string(reinterpret_cast<const char*>(gz), sizeof gz));
  d.write("logs/live.log", "live\n");
  Follower f(std::vector<std::string>{d.file("logs")}, FollowOptions{});
  Seen seen;
  auto cb = [&](const FollowedLine& l) { seen.add(l); };
  f.poll(cb);
  f.poll(cb);  // nothing new: the archive is not delivered twice
  EXPECT_EQ(seen.texts(), (std::vector<std::string>{"live", "a", "b"}));
  EXPECT_TRUE(f.problems().empty());
}
