// knowledge/compat_pins: the generated table of release pins (data/compat_pins.tsv, written by
// scripts/compat-pins.py from each release's own Requires-Dist) loads, answers, and refuses a
// malformed row at load with its line.
#include <gtest/gtest.h>

#include "knowledge/compat_pins.h"

using namespace ncdx::knowledge;

namespace {
const std::string kHead = "# comment\n# generated: 2026-12-03\npackage\tversion\trequires\tspec\textra\tmarker\n";

std::string error_of(const std::string& tsv) {
  auto t = parse_compat_pins(tsv);
  return t.ok() ? std::string("(parsed)") : t.status().message();
}
}  // namespace

TEST(CompatPins, EmbeddedTableLoadsAndAnswers) {
  auto t = CompatPins::get();
  ASSERT_TRUE(t.ok()) << t.status().message();
  const auto& p = **t;
  EXPECT_FALSE(p.generated().empty());
  // Facts of the uploads (PyPI metadata of the Linux x86_64 wheels).
  auto vllm = p.pins("vllm", p.release("vllm", "0.8.5"), "torch");
  ASSERT_EQ(vllm.size(), 1u);
  EXPECT_EQ(vllm[0]->spec, "==2.6.0");
  EXPECT_EQ(vllm[0]->requirement(), "Requires-Dist torch==2.6.0");
  auto nccl = p.pins("torch", p.release("torch", "2.6.0+cu124"), "nvidia-nccl-cu12");
  ASSERT_EQ(nccl.size(), 1u);
  EXPECT_EQ(nccl[0]->spec, "==2.21.5");
  EXPECT_EQ(nccl[0]->marker, "platform_system == \"Linux\" and platform_machine == \"x86_64\"");
  // SGLang 0.4.6.post5 pins torch in its `srt` extra, verl 0.4.1 in its `sglang` extra.
  bool srt = false;
  for (const auto* x : p.pins("sglang", p.release("sglang", "0.4.6.post5"), "torch"))
    srt |= x->extra == "srt" && x->spec == "==2.6.0";
  EXPECT_TRUE(srt);
  auto verl = p.pins("verl", p.release("verl", "0.4.1"), "torch");
  ASSERT_EQ(verl.size(), 1u);
  EXPECT_EQ(verl[0]->requirement(), "Requires-Dist torch==2.6.0; extra == \"sglang\"");
  // verl uploaded only post releases of 0.3.0.
  EXPECT_EQ(p.release("verl", "0.3.0"), "0.3.0.post1");
  EXPECT_EQ(p.release("vllm", "0.0.1"), "");
  EXPECT_TRUE(p.pins("vllm", "", "torch").empty());
  auto rel = p.releases("vllm");
  ASSERT_FALSE(rel.empty());
  EXPECT_EQ(rel.front(), "0.6.3");
}

TEST(CompatPins, ParsesRowsAndDashes) {
  auto t = parse_compat_pins(kHead +
                             "vllm\t0.8.5\ttorch\t==2.6.0\t-\t-\nverl\t0.5.0\tvllm\t<=0.8.5,>=0.7.3\tvllm\t-\n"
                             "sglang\t0.4.4.post3\ttorch\t-\tsrt-cpu\t-\n");
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t->generated(), "2026-12-03");
  auto v = t->pins("verl", "0.5.0", "vllm");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0]->extra, "vllm");
  EXPECT_EQ(v[0]->line, 5);
  EXPECT_EQ(t->pins("sglang", "0.4.4.post3", "torch")[0]->spec, "");
}

TEST(CompatPins, MalformedRowsFailAtLoadWithTheirLine) {
  // {table, error}: a row of the header-led table (line 4) or a whole text.
  const std::pair<std::string, std::string> cases[] = {
      {"vllm\t0.8.5\ttorch\t==2.6.0\t-\t-\n",
       "1: expected the column header 'package\tversion\trequires\tspec\textra\tmarker'"},
      {kHead + "vllm\t0.8.5\ttorch\t==2.6.0\t-\n", "4: expected 6 tab-separated columns, found 5"},
      {kHead + "vllm\tlatest\ttorch\t==2.6.0\t-\t-\n", "4: bad version 'latest'"},
      {kHead + "vllm\t0.8.5\ttorch\t2.6.0\t-\t-\n", "4: bad version spec '2.6.0'"},
      {kHead + "vllm\t0.8.5\ttorch\t==2.6.0,\t-\t-\n", "4: bad version spec '==2.6.0,'"},
      {kHead + "vLLM\t0.8.5\ttorch\t==2.6.0\t-\t-\n", "4: package and requires must be PEP 503 names"},
      {kHead + "vllm\t0.8.5\ttorch\t==2.6.0\tSRT x\t-\n", "4: bad extra 'SRT x'"},
      {kHead + "vllm\t0.8.5\ttorch\t==2.6.0\t-\t\n", "4: empty marker (write '-')"},
      {"# only comments\n", "2: no column header"},
      {kHead, "4: no rows"},
  };
  for (const auto& [tsv, error] : cases) EXPECT_EQ(error_of(tsv), "knowledge/compat_pins.tsv:" + error) << tsv;
}
