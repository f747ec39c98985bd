// LineReader on plain, gzip and zstd files, CRLF, long lines, truncated and corrupt archives.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <zlib.h>
#include <zstd.h>

#include <unistd.h>

#include <random>
#include <thread>

#include "analyze/logs/log_source.h"
#include "support/temp_dir.h"

using ncdx::analyze::LineReader;
using ncdx::core::Exit;
using ncdx::testing::TempDir;

namespace {

std::string gzip(const std::string& in) {
  z_stream zs{};
  deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&zs, in.size()) + 64, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = in.size();
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = out.size();
  EXPECT_EQ(deflate(&zs, Z_FINISH), Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

// With a content checksum, as the zstd CLI writes by default: corruption is then always detected.
std::string zstd(const std::string& in) {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
  std::string out(ZSTD_compressBound(in.size()), '\0');
  out.resize(ZSTD_compress2(cctx, out.data(), out.size(), in.data(), in.size()));
  ZSTD_freeCCtx(cctx);
  return out;
}

struct ReadAll {
  std::vector<std::string> lines;
  std::vector<bool> truncated;
  ncdx::core::Status status;
};

ReadAll read_all(const std::string& path, std::size_t max_line = LineReader::kDefaultMaxLine) {
  auto r = LineReader::open(path, max_line);
  EXPECT_TRUE(r.ok()) << r.status().message();
  ReadAll out;
  if (!r.ok()) return out;
  std::string_view line;
  while ((*r)->next(line)) {
    out.lines.emplace_back(line);
    out.truncated.push_back((*r)->last_truncated());
    EXPECT_EQ((*r)->line_number(), static_cast<long long>(out.lines.size()));
  }
  out.status = (*r)->status();
  return out;
}

std::string numbered(int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += "host:1:2 [0] NCCL INFO line " + std::to_string(i) + "\n";
  return s;
}

}  // namespace

TEST(LineReader, PlainCrlfAndLastLineWithoutNewline) {
  TempDir d;
  auto r = read_all(d.write("a.log", "one\r\ntwo\n\nthree"));
  EXPECT_EQ(r.lines, (std::vector<std::string>{"one", "two", "", "three"}));
  EXPECT_TRUE(r.status.is_ok());
}

TEST(LineReader, EmptyFile) {
  TempDir d;
  auto r = read_all(d.write("empty.log", ""));
  EXPECT_TRUE(r.lines.empty());
  EXPECT_TRUE(r.status.is_ok());
}

TEST(LineReader, ManyLinesAcrossBuffers) {
  TempDir d;
  std::string text = numbered(200000);  // ~7 MB: several 1 MiB refills with lines split across them
  auto r = read_all(d.write("big.log", text));
  ASSERT_EQ(r.lines.size(), 200000u);
  EXPECT_EQ(r.lines[123456], "host:1:2 [0] NCCL INFO line 123456");
  EXPECT_EQ(r.lines.back(), "host:1:2 [0] NCCL INFO line 199999");
}

TEST(LineReader, GzipAndZstdMatchPlain) {
  TempDir d;
  std::string text = numbered(50000) + "last\r\n";
  auto plain = read_all(d.write("p.log", text));
  auto gz = read_all(d.write("g.log", gzip(text)));            // detected by magic, not by name
  auto zs = read_all(d.write("z.txt", zstd(text)));
  EXPECT_EQ(gz.lines, plain.lines);
  EXPECT_EQ(zs.lines, plain.lines);
  EXPECT_TRUE(gz.status.is_ok());
  EXPECT_TRUE(zs.status.is_ok());
  EXPECT_EQ(plain.lines.back(), "last");
}

TEST(LineReader, ConcatenatedArchives) {
  TempDir d;
  auto gz = read_all(d.write("c.gz", gzip("a\nb\n") + gzip("c\n")));
  EXPECT_EQ(gz.lines, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_TRUE(gz.status.is_ok());
  auto zs = read_all(d.write("c.zst", zstd("a\nb\n") + zstd("c\n")));
  EXPECT_EQ(zs.lines, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_TRUE(zs.status.is_ok());
}

TEST(LineReader, TruncatedArchivesKeepEarlierLines) {
  TempDir d;
  std::string text = numbered(100000);
  for (auto [name, data] : {std::pair{std::string("t.gz"), gzip(text)}, std::pair{std::string("t.zst"), zstd(text)}}) {
    std::string cut = data.substr(0, data.size() / 2);
    std::string path = d.write(name, cut);
    auto r = read_all(path);
    EXPECT_EQ(r.status.code(), Exit::bad_input) << name;
    EXPECT_NE(r.status.message().find(path), std::string::npos) << r.status.message();
    EXPECT_NE(r.status.message().find("truncated"), std::string::npos) << r.status.message();
    ASSERT_GT(r.lines.size(), 1000u) << name;
    EXPECT_EQ(r.lines[999], "host:1:2 [0] NCCL INFO line 999");
  }
}

TEST(LineReader, CorruptArchivesAreBadInput) {
  TempDir d;
  std::string text = numbered(20000);
  for (auto [name, data] : {std::pair{std::string("x.gz"), gzip(text)}, std::pair{std::string("x.zst"), zstd(text)}}) {
    for (std::size_t i = data.size() / 3; i < data.size() / 3 + 64; ++i) data[i] = static_cast<char>(data[i] ^ 0x5a);
    auto r = read_all(d.write(name, data));
    EXPECT_EQ(r.status.code(), Exit::bad_input) << name;
    EXPECT_NE(r.status.message().find("corrupt"), std::string::npos) << r.status.message();
  }
  auto junk = read_all(d.write("j.gz", gzip("a\n") + "garbage"));
  EXPECT_EQ(junk.lines, std::vector<std::string>{"a"});
  EXPECT_EQ(junk.status.code(), Exit::bad_input);
}

TEST(LineReader, LongLineCutWithinBuffer) {
  TempDir d;
  std::string text = std::string(100, 'a') + "\nok\n";
  auto r = read_all(d.write("l.log", text), 10);
  EXPECT_EQ(r.lines, (std::vector<std::string>{"aaaaaaaaaa", "ok"}));
  EXPECT_EQ(r.truncated, (std::vector<bool>{true, false}));
}

TEST(LineReader, HundredMegabyteLineIsCutAndSkippedWithoutBuffering) {
  TempDir d;
  std::string path = d.file("huge.log");
  {
    std::ofstream f(path, std::ios::binary);
    f << "first\n";
    std::string chunk(1 << 20, 'x');
    for (int i = 0; i < 100; ++i) f << chunk;
    f << "\nafter\n";
  }
  struct rusage before {};
  getrusage(RUSAGE_SELF, &before);
  auto r = read_all(path);
  struct rusage after {};
  getrusage(RUSAGE_SELF, &after);
  ASSERT_EQ(r.lines.size(), 3u);
  EXPECT_EQ(r.lines[0], "first");
  EXPECT_EQ(r.lines[1].size(), LineReader::kDefaultMaxLine);
  EXPECT_TRUE(r.truncated[1]);
  EXPECT_EQ(r.lines[2], "after");
  EXPECT_FALSE(r.truncated[2]);
  // The reader never holds the 100 MB line: peak RSS grows by far less than it.
  EXPECT_LT(after.ru_maxrss - before.ru_maxrss, 40 * 1024) << "KiB";
}

TEST(LineReader, BinaryFileGivesLinesNotACrash) {
  TempDir d;
  std::string bin(300000, '\0');
  std::mt19937 rng(7);
  for (auto& c : bin) c = static_cast<char>(rng());
  auto r = read_all(d.write("core.bin", bin), 1000);
  EXPECT_TRUE(r.status.is_ok());
  EXPECT_GT(r.lines.size(), 100u);
  std::size_t total = 0;
  for (auto& l : r.lines) total += l.size();
  EXPECT_LE(total, bin.size());
}

TEST(LineReader, MissingFileAndDirectory) {
  TempDir d;
  auto m = LineReader::open(d.file("nope.log"));
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), Exit::not_found);
  EXPECT_NE(m.status().message().find("nope.log"), std::string::npos);
  auto dir = LineReader::open(d.path());
  ASSERT_FALSE(dir.ok());
  EXPECT_EQ(dir.status().code(), Exit::not_found);
}

// A pipe (what "-" is under `zcat x | ncdx triage -`): not seekable, and the writer hands over
// the gzip magic one byte at a time, so detection must wait for enough bytes.
TEST(LineReader, PipeWithMagicSplitAcrossWrites) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  std::string data = gzip("from a pipe\nsecond\n");
  std::thread writer([&] {
    for (char c : data) EXPECT_EQ(::write(fds[1], &c, 1), 1);
    ::close(fds[1]);
  });
  auto r = LineReader::open("/proc/self/fd/" + std::to_string(fds[0]));
  ASSERT_TRUE(r.ok()) << r.status().message();
  std::vector<std::string> lines;
  std::string_view line;
  while ((*r)->next(line)) lines.emplace_back(line);
  writer.join();
  ::close(fds[0]);
  EXPECT_EQ(lines, (std::vector<std::string>{"from a pipe", "second"}));
  EXPECT_TRUE((*r)->status().is_ok());
}

TEST(LineReader, BytesInCountsCompressedBytes) {
  TempDir d;
  std::string data = gzip(numbered(1000));
  auto r = LineReader::open(d.write("b.gz", data));
  ASSERT_TRUE(r.ok());
  std::string_view line;
  while ((*r)->next(line)) {
  }
  EXPECT_EQ((*r)->bytes_in(), data.size());
}
