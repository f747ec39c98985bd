// The message catalogue (src/knowledge/data/messages.tsv: every WARN/failure text of NCCL
// 2.3-2.30, PyTorch c10d/elastic, vLLM distributed, CUDA runtime, with a proposed root-cause class;
// columns and classes in messages.md). Each format string is filled with sample values and given
// the prefix it is printed with (NCCL "host:pid:tid [dev] NCCL WARN|INFO ", glog, Python logging,
// a traceback's last line), then run through the real scan + correlate pipeline, with the prefix
// and without. The verdict must carry the catalogue's class (`info-only` -> no failure).
//
// The catalogue's classes are a proposal (rules over the text); where one is wrong, the right class
// and the reason are in src/knowledge/data/messages_corrections.tsv (never silently; triage applies
// them too). Coverage per
// project (rows with the right class / failure rows) is printed, and must not fall below
// tests/data/triage/catalogue/floors.tsv: the test fails when a change loses coverage.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/triage_test_util.h"
#include "support/test_paths.h"

namespace {

struct Row {
  std::string project, kind, klass, file, line, format;
};

std::vector<std::string> split_tabs(const std::string& s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  for (;;) {
    auto j = s.find('\t', i);
    out.push_back(s.substr(i, j == std::string::npos ? std::string::npos : j - i));
    if (j == std::string::npos) break;
    i = j + 1;
  }
  return out;
}

// Sample values for printf holes (%s %d %lu %zu %p %x %.2f %-8s ...), fmt/f-string holes ({} {expr})
// and the C escapes kept in the catalogue.
std::string fill(const std::string& f) {
  std::string out;
  for (std::size_t i = 0; i < f.size(); ++i) {
    char c = f[i];
    if (c == '\\' && i + 1 < f.size()) {
      char n = f[++i];
      out += n == 'n' ? '\n' : n == 't' ? ' ' : n;
      continue;
    }
    if (c == '%' && i + 1 < f.size()) {
      if (f[i + 1] == '%') {
        out += '%';
        ++i;
        continue;
      }
      std::size_t j = i + 1;
      while (j < f.size() && std::string_view("-+ #0123456789.*").find(f[j]) != std::string_view::npos) ++j;
      while (j < f.size() && std::string_view("hljztL").find(f[j]) != std::string_view::npos) ++j;
      if (j >= f.size()) {
        out += c;
        continue;
      }
      switch (f[j]) {
        case 's': out += "item0"; break;
        case 'd': case 'i': case 'u': out += "3"; break;
        case 'x': case 'X': out += "1f"; break;
        case 'p': out += "0x7f3a2c000000"; break;
        case 'f': case 'g': case 'e': out += "1.50"; break;
        case 'c': out += "x"; break;
        default: out += f.substr(i, j - i + 1);
      }
      i = j;
      continue;
    }
    if (c == '{') {
      auto e = f.find('}', i);
      if (e != std::string::npos && e - i < 80) {
        out += "3";
        i = e;
        continue;
      }
    }
    out += c;
  }
  return out;
}

std::string basename(const std::string& p) { return p.substr(p.rfind('/') == std::string::npos ? 0 : p.rfind('/') + 1); }

// The line as the project prints it.
std::string with_prefix(const Row& r, const std::string& msg) {
  const std::string src = basename(r.file) + ":" + (r.line.empty() ? "1" : r.line);
  if (r.project == "nccl") {
    if (r.kind == "WARN") return "gpu-node-01:1234:1250 [0] " + src + " NCCL WARN " + msg;
    if (r.kind == "INFO") return "gpu-node-01:1234:1250 [0] NCCL INFO " + msg;
    return msg;  // result strings and "-> %d" wrappers are printed inside other lines
  }
  if (r.project == "cuda") return "RuntimeError: CUDA error: " + msg;
  const std::string& k = r.kind;
  if (k.rfind("raise ", 0) == 0) return k.substr(6) + ": " + msg;
  if (k == "TORCH_CHECK" || k == "TORCH_CHECK_WITH" || k == "C10_THROW_ERROR" || k == "TORCH_INTERNAL_ASSERT" ||
      k == "C10D_THROW_ERROR" || k == "throw")
    return "RuntimeError: " + msg;
  if (k == "LOG(ERROR)" || k == "C10D_ERROR") return "[E1202 04:17:08.168302819 " + src + "] " + msg;
  if (k == "LOG(WARNING)" || k == "TORCH_WARN" || k == "C10D_WARNING") return "[W1202 04:17:08.168302819 " + src + "] " + msg;
  if (k == "LOG(INFO)" || k == "C10D_INFO") return "[I1202 04:17:08.168302819 " + src + "] " + msg;
  if (r.project == "vllm" && k.rfind("logger.", 0) == 0) {
    std::string lvl = k == "logger.info" ? "INFO" : k == "logger.warning" ? "WARNING" : "ERROR";
    return lvl + " 12-02 04:17:08 [" + src + "] " + msg;
  }
  if (k.rfind("logger.", 0) == 0) {
    char lvl = k == "logger.info" ? 'I' : k == "logger.warning" ? 'W' : 'E';
    return std::string(1, lvl) + "1202 04:17:08.168000 1234 " + r.file + ":" + (r.line.empty() ? "1" : r.line) + "] " + msg;
  }
  if (k == "warnings.warn") return r.file + ":" + (r.line.empty() ? "1" : r.line) + ": UserWarning: " + msg;
  return msg;
}

struct Tally {
  int failure_rows = 0, right = 0, right_bare = 0, info_rows = 0, info_quiet = 0;
};

TEST(MessageCatalogue, ClassPerProject) {
  const std::string data = std::string(NCDX_TEST_DATA) + "/../../src/knowledge/data/";
  const std::string path = data + "messages.tsv";
  std::ifstream in(path);
  ASSERT_TRUE(in) << "catalogue not present: " << path;
  std::map<std::pair<std::string, std::string>, std::pair<std::string, std::string>> corrections;
  {
    std::ifstream c(data + "messages_corrections.tsv");
    std::string line;
    while (std::getline(c, line)) {
      if (line.empty() || line[0] == '#') continue;
      auto f = split_tabs(line);
      ASSERT_EQ(f.size(), 4u) << "corrections.tsv: project, format, class, reason: " << line;
      ASSERT_FALSE(f[3].empty()) << "a correction needs its reason: " << line;
      corrections[{f[0], f[1]}] = {f[2], f[3]};
    }
  }
  std::map<std::string, double> floors;
  {
    std::ifstream fl(std::string(NCDX_TEST_DATA) + "/triage/catalogue/floors.tsv");
    std::string l;
    while (std::getline(fl, l)) {
      if (l.empty() || l[0] == '#') continue;
      auto f = split_tabs(l);
      ASSERT_EQ(f.size(), 2u) << "floors.tsv: project<TAB>floor: " << l;
      floors[f[0]] = std::stod(f[1]);
    }
    ASSERT_FALSE(floors.empty()) << "floors.tsv holds no floor: the coverage check would check nothing";
  }
  std::string line;
  std::getline(in, line);  // header
  std::map<std::string, Tally> t;
  std::map<std::string, std::map<std::string, std::map<std::string, int>>> confusion;
  std::size_t used = 0;
  // NCDX_CATALOGUE_DUMP=FILE writes every built line (project, class, line with its prefix; newlines
  // as \n) for measurements of other binaries through the CLI (bench/catalogue_vs.py).
  std::ofstream dump;
  if (const char* d = std::getenv("NCDX_CATALOGUE_DUMP")) dump.open(d);
  while (std::getline(in, line)) {
    auto f = split_tabs(line);
    if (f.size() < 8) continue;
    Row r{f[0], f[1], f[2], f[5], f[6], f[7]};
    if (auto c = corrections.find({r.project, r.format}); c != corrections.end()) {
      r.klass = c->second.first;
      ++used;
    }
    const std::string msg = fill(r.format);
    if (dump.is_open()) {
      std::string one = with_prefix(r, msg);
      for (std::size_t k = 0; (k = one.find('\n', k)) != std::string::npos;) one.replace(k, 1, "\\n");
      dump << r.project << '\t' << r.klass << '\t' << one << '\n';
    }
    auto got = ncdx::testing::triage_text("catalogue.log", with_prefix(r, msg)).verdict.klass;
    auto bare = ncdx::testing::triage_text("catalogue.log", msg).verdict.klass;
    auto& s = t[r.project];
    if (r.klass == "info-only") {
      ++s.info_rows;
      s.info_quiet += got == "none";
      continue;
    }
    ++s.failure_rows;
    s.right += got == r.klass;
    s.right_bare += bare == r.klass;
    ++confusion[r.project][r.klass][got];
  }
  EXPECT_EQ(used, corrections.size()) << "a correction names a row that is not in the catalogue";
  for (const auto& [p, s] : t) {
    double cov = s.failure_rows ? double(s.right) / s.failure_rows : 0;
    std::printf("catalogue %-8s right class %d/%d (%.1f %%), without prefix %d/%d; info-only quiet %d/%d\n", p.c_str(),
                s.right, s.failure_rows, 100 * cov, s.right_bare, s.failure_rows, s.info_quiet, s.info_rows);
    for (const auto& [want, row] : confusion[p]) {
      std::printf("    %-16s", want.c_str());
      for (const auto& [g, n] : row) std::printf(" %s:%d", g.c_str(), n);
      std::printf("\n");
    }
    if (auto fl = floors.find(p); fl != floors.end()) {
      EXPECT_GE(cov + 1e-9, fl->second) << p << ": catalogue coverage fell below its floor (floors.tsv)";
    }
  }
}

}  // namespace
