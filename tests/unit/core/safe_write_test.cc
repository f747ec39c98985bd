#include "core/safe_write.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

#include "support/rename_churn.h"
#include "support/temp_dir.h"

using namespace ncdx::core;
namespace fs = std::filesystem;

namespace {
std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace

TEST(SafeWrite, WritesBelowANewDirectory) {
  ncdx::testing::TempDir t;
  auto d = SafeDir::open(t.file("a/b/report"));
  ASSERT_TRUE(d) << d.status().message();
  ASSERT_TRUE(d->write("report.json", "{}\n"));
  ASSERT_TRUE(d->write("sub/x.txt", "x"));
  EXPECT_EQ(slurp(t.file("a/b/report/report.json")), "{}\n");
  EXPECT_EQ(slurp(t.file("a/b/report/sub/x.txt")), "x");
  // No temporary file is left behind.
  int n = 0;
  for (auto& e : fs::directory_iterator(t.file("a/b/report"))) n += e.path().filename().string().starts_with(".ncdx-tmp");
  EXPECT_EQ(n, 0);
}

TEST(SafeWrite, RefusesNonEmptyAndSymlinkedDirectories) {
  ncdx::testing::TempDir t;
  t.write("full/notes.txt", "mine");
  auto d = SafeDir::open(t.file("full"));
  ASSERT_FALSE(d);
  EXPECT_EQ(d.status().code(), Exit::usage);
  EXPECT_NE(d.status().message().find("not empty"), std::string::npos);
  SafeDirOptions force;
  force.force = true;
  EXPECT_TRUE(SafeDir::open(t.file("full"), force));

  t.write("victim/keep", "k");
  fs::create_directory_symlink(t.file("victim"), t.file("link"));
  auto l = SafeDir::open(t.file("link"), SafeDirOptions{false, false, "report directory"});
  ASSERT_FALSE(l);
  EXPECT_NE(l.status().message().find("symlink"), std::string::npos);
  // A symlinked parent is refused too.
  EXPECT_FALSE(SafeDir::open(t.file("link/new")));
  EXPECT_FALSE(fs::exists(t.file("victim/new")));
}

TEST(SafeWrite, LeafSymlinkIsReplacedNotFollowed) {
  ncdx::testing::TempDir t;
  t.write("secret", "original");
  auto d = SafeDir::open(t.file("out"));
  ASSERT_TRUE(d);
  fs::create_symlink(t.file("secret"), t.file("out/report.json"));
  ASSERT_TRUE(d->write("report.json", "new"));
  EXPECT_EQ(slurp(t.file("secret")), "original");
  EXPECT_FALSE(fs::is_symlink(t.file("out/report.json")));
}

TEST(SafeWrite, NothingEscapesThroughLinksOrDotDot) {
  ncdx::testing::TempDir t;
  auto d = SafeDir::open(t.file("bundle"));
  ASSERT_TRUE(d);
  fs::create_directories(t.file("outside"));
  fs::create_directory_symlink("../../outside", t.file("bundle/up"));
  EXPECT_FALSE(d->write("up/x", "x", true));
  EXPECT_FALSE(d->write("../x", "x", true));
  EXPECT_FALSE(d->write("a/../../x", "x", true));
  EXPECT_FALSE(fs::exists(t.file("outside/x")));
  EXPECT_FALSE(fs::exists(t.file("x")));
  if (!have_openat2()) GTEST_SKIP() << "no openat2 on this kernel: links are never replayed";
  // The chained-link attack of issue #12: eth8 climbs through hide/bb. On the source machine
  // bb -> x1/x2/x3 keeps it inside; replayed with bb as a plain directory it climbs out.
  ASSERT_TRUE(d->mkdirs("hide/bb"));
  auto b = d->symlink_beneath("sys/class/net/eth8", "../../../hide/bb/../../../../dd");
  ASSERT_TRUE(b);
  EXPECT_FALSE(*b);
  EXPECT_FALSE(fs::exists(t.file("dd")));
  EXPECT_FALSE(fs::is_symlink(t.file("bundle/sys/class/net/eth8")));
  // With bb replayed as the link it is, the same target stays inside and is replayed.
  auto a = d->symlink_beneath("hide2/bb", "x1/x2/x3");
  ASSERT_TRUE(a);
  EXPECT_TRUE(*a);
  auto c2 = d->symlink_beneath("sys/class/net/eth9", "../../../hide2/bb/../../../../dd");
  ASSERT_TRUE(c2);
  EXPECT_TRUE(*c2);
  EXPECT_TRUE(fs::is_directory(t.file("bundle/dd")));
  EXPECT_FALSE(fs::exists(t.file("dd")));
  // A sysfs-style link that stays inside is replayed and written through.
  auto c = d->symlink_beneath("sys/class/net/eth0", "../../devices/pci0000:00/net/eth0");
  ASSERT_TRUE(c);
  EXPECT_TRUE(*c);
  ASSERT_TRUE(d->write("sys/class/net/eth0/mtu", "1500\n", true));
  EXPECT_EQ(slurp(t.file("bundle/sys/devices/pci0000:00/net/eth0/mtu")), "1500\n");
}

TEST(SafeWrite, SingleFileRefusesOverwriteAndLinks) {
  ncdx::testing::TempDir t;
  auto f = t.write("snap.json", "old");
  auto s = write_file_safe(f, "new", false);
  EXPECT_FALSE(s);
  EXPECT_EQ(slurp(f), "old");
  EXPECT_TRUE(write_file_safe(f, "new", true));
  EXPECT_EQ(slurp(f), "new");
  t.write("target", "t");
  fs::create_symlink(t.file("target"), t.file("lnk.json"));
  EXPECT_FALSE(write_file_safe(t.file("lnk.json"), "x", false));
  EXPECT_EQ(slurp(t.file("target")), "t");
  EXPECT_TRUE(write_file_safe(t.file("fresh.json"), "f", false));
}

// The EAGAIN of openat2(RESOLVE_BENEATH) under a concurrent rename (openat2(2), ERRORS; see
// FileSystem.ReadsThroughDotDotLinksWhileFilesAreRenamedElsewhere): `gather` replays each sysfs link
// ("../../../devices/...") with symlink_beneath and writes files through it; a rename elsewhere
// must neither drop a link from the bundle nor fail a write.
TEST(SafeWrite, LinksAndWritesThroughDotDotWhileFilesAreRenamedElsewhere) {
  if (!have_openat2()) GTEST_SKIP() << "no openat2 on this kernel: links are never replayed";
  ncdx::testing::TempDir t;
  auto d = SafeDir::open(t.file("bundle"));
  ASSERT_TRUE(d);
  int dropped = 0, failed = 0;
  long renames = 0;
  {
    ncdx::testing::RenameChurn churn;
    for (int i = 0; i < 1000; ++i) {
      std::string dev = "0000:c3:00." + std::to_string(i);
      auto l = d->symlink_beneath("sys/bus/pci/devices/" + dev, "../../../devices/pci0000:c0/" + dev);
      dropped += !(l && *l);
      failed += !d->write("sys/bus/pci/devices/" + dev + "/class", "0x030200\n", true).ok();
    }
    renames = churn.renames();
  }
  EXPECT_EQ(dropped, 0) << "links of 1000, during " << renames << " renames";
  EXPECT_EQ(failed, 0) << "writes of 1000, during " << renames << " renames";
  EXPECT_EQ(slurp(t.file("bundle/sys/devices/pci0000:c0/0000:c3:00.999/class")), "0x030200\n");
}
