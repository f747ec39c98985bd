#include "core/fs.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sys/stat.h>  // mkfifo
#include <unistd.h>  // getpid: a temp dir per test process

#include "core/safe_write.h"  // have_openat2
#include "support/rename_churn.h"
#include "support/temp_dir.h"

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

// openat2(RESOLVE_BENEATH) answers EAGAIN when a rename or mount anywhere on the system races a
// ".." step of the lookup (openat2(2), ERRORS, man-pages 6.03), and every sysfs device link is
// "../../../devices/...". Read as "cannot open", one such answer dropped a GPU (and the bridge
// above it) from doctor.golden.dgx-h100.json in a loaded `ctest -j2` run. Another thread renames
// a file elsewhere all along (support/rename_churn.h); every read must still succeed.
TEST(FileSystem, ReadsThroughDotDotLinksWhileFilesAreRenamedElsewhere) {
  if (!have_openat2()) GTEST_SKIP() << "no openat2 on this kernel: reads do not use RESOLVE_BENEATH";
  ncdx::testing::TempDir t;
  t.write("sys/devices/pci0000:c0/0000:c0:01.0/0000:c3:00.0/class", "0x030200\n");
  std::filesystem::create_directories(t.file("sys/bus/pci/devices"));
  std::filesystem::create_directory_symlink("../../../devices/pci0000:c0/0000:c0:01.0/0000:c3:00.0",
                                            t.file("sys/bus/pci/devices/0000:c3:00.0"));
  FileSystem fs(t.path());
  int failed = 0;
  long renames = 0;
  {
    ncdx::testing::RenameChurn churn;
    for (int i = 0; i < 20000; ++i) failed += !fs.read("/sys/bus/pci/devices/0000:c3:00.0/class").ok();
    renames = churn.renames();
  }
  EXPECT_EQ(failed, 0) << "of 20000 reads, during " << renames << " renames";
}
