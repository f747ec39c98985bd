#include "core/fs.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sys/stat.h>  // mkfifo
#include <unistd.h>  // getpid: a temp dir per test process

using namespace ncdx::core;

TEST(FileSystem, ReadsUnderRootAndCannotClimbOut) {
  auto dir = std::filesystem::temp_directory_path() / ("ncdx_fs_test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "proc");
  std::ofstream(dir / "proc" / "version") << "Linux 6.1\n";
  FileSystem fs(dir);
  EXPECT_EQ(fs.read_trimmed("/proc/version"), "Linux 6.1");
  EXPECT_EQ(fs.host_path("/../../etc/passwd"), dir / "etc" / "passwd");
  EXPECT_FALSE(fs.read("/nope").ok());
  EXPECT_EQ(fs.read("/nope").status().code(), Exit::not_found);
  std::filesystem::remove_all(dir);
}

TEST(FileSystem, ReadIsBounded) {
  auto dir = std::filesystem::temp_directory_path() / ("ncdx_fs_test2-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "big") << std::string(10000, 'x');
  FileSystem fs(dir);
  auto r = fs.read("/big", 100);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->size(), 100u);
  std::filesystem::remove_all(dir);
}

TEST(FileSystem, ReplayedRootSymlinksCannotLeadOutside) {
  auto dir = std::filesystem::temp_directory_path() / ("ncdx_fs_escape-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "etc");
  std::filesystem::create_directories(dir / "sys/devices/x");
  std::ofstream(dir / "sys/devices/x/speed") << "100\n";
  std::filesystem::create_symlink("/etc/hostname", dir / "etc/hostname");          // escapes
  std::filesystem::create_symlink("devices/x", dir / "sys/link");                   // stays inside
  FileSystem fs(dir);
  EXPECT_FALSE(fs.read("/etc/hostname").ok());
  EXPECT_FALSE(fs.exists("/etc/hostname"));
  EXPECT_EQ(fs.read_trimmed("/sys/link/speed"), "100");
  std::filesystem::remove_all(dir);
}

// Issue #12 item 3: a FIFO inside --root hung doctor and gather (std::ifstream blocks in open).
TEST(FileSystem, SpecialFilesAreRefusedNotWaitedOn) {
  auto dir = std::filesystem::temp_directory_path() / ("ncdx_fs_test_fifo-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "proc");
  ASSERT_EQ(::mkfifo((dir / "proc" / "meminfo").c_str(), 0600), 0);
  FileSystem fs(dir);
  auto r = fs.read("/proc/meminfo");  // returns at once: O_NONBLOCK open, fstat says FIFO
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("not a regular file"), std::string::npos);
  EXPECT_FALSE(fs.read("/").ok());  // a directory is not read either
  std::filesystem::remove_all(dir);
}

TEST(FileSystem, LinksLeavingTheRootAreRefused) {
  auto dir = std::filesystem::temp_directory_path() / ("ncdx_fs_test_esc-" + std::to_string(::getpid()));
  auto outside = dir.string() + "-outside";
  std::filesystem::create_directories(dir / "etc");
  std::filesystem::create_directories(outside);
  std::ofstream(outside + "/secret") << "host secret\n";
  std::filesystem::create_symlink("../../" + std::filesystem::path(outside).filename().string() + "/secret", dir / "etc" / "rel");
  std::filesystem::create_symlink(outside + "/secret", dir / "etc" / "abs");
  std::filesystem::create_directory_symlink("..", dir / "etc" / "up");
  FileSystem fs(dir);
  EXPECT_FALSE(fs.read("/etc/rel").ok());
  EXPECT_FALSE(fs.read("/etc/abs").ok());
  EXPECT_FALSE(fs.read("/etc/up/up/" + std::filesystem::path(outside).filename().string() + "/secret").ok());
  std::filesystem::remove_all(dir);
  std::filesystem::remove_all(outside);
}
