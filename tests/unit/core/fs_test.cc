#include "core/fs.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace ncdx::core;

TEST(FileSystem, ReadsUnderRootAndCannotClimbOut) {
  auto dir = std::filesystem::temp_directory_path() / "ncdx_fs_test";
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
  auto dir = std::filesystem::temp_directory_path() / "ncdx_fs_test2";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "big") << std::string(10000, 'x');
  FileSystem fs(dir);
  auto r = fs.read("/big", 100);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->size(), 100u);
  std::filesystem::remove_all(dir);
}
