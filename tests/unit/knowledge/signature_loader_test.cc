// Loader errors: malformed knowledge files fail with "<source>:<line>: <what was expected>".
#include <gtest/gtest.h>

#include "knowledge/signatures.h"

namespace ncdx::knowledge {
namespace {

std::string load_error(const std::string& yaml) {
  auto r = SignatureSet::load(yaml, "test.yaml");
  if (r.ok()) return "<loaded>";
  EXPECT_EQ(r.status().code(), core::Exit::bad_input);
  return r.status().message();
}

const char* kGood =
    "signatures:\n"
    "- id: test.one\n"
    "  class: network-ib\n"
    "  severity: error\n"
    "  role: cause\n"
    "  priority: 80\n"
    "  title: one\n"
    "  cause: 'status {status}'\n"
    "  patterns: ['with error (?P<status>\\d+)']\n"
    "  fixes: [{action: do it, env: NCCL_IB_GID_INDEX=3}]\n"
    "  refs: [here]\n"
    "  examples: ['with error 12']\n";

TEST(SignatureLoader, LoadsAndMatchesAMinimalFile) {
  auto r = SignatureSet::load(kGood, "test.yaml");
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->all().size(), 1u);
  const Signature& s = r->all()[0];
  EXPECT_EQ(s.role, Role::cause);
  EXPECT_EQ(s.priority, 80);
  ASSERT_EQ(s.fixes.size(), 1u);
  EXPECT_EQ(s.fixes[0].env.value(), "NCCL_IB_GID_INDEX=3");
  EXPECT_FALSE(s.fixes[0].command.has_value());
  std::vector<SignatureMatch> out;
  r->match("peer x with error 12, opcode 0", out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].fields.at("status"), "12");
  EXPECT_EQ(render_cause(s, out[0].fields), "status 12");
  out.clear();
  r->match("nothing here", out);
  EXPECT_TRUE(out.empty());
}

TEST(SignatureLoader, YamlSyntaxErrorHasLine) {
  EXPECT_EQ(load_error("signatures:\n- id: a.b\n  title: [unclosed\n  class: other\n").rfind("test.yaml:", 0), 0u);
  std::string e = load_error("signatures:\n- id: a.b\n  title: x: y\n");
  EXPECT_NE(e.find("test.yaml:3:"), std::string::npos) << e;
}

TEST(SignatureLoader, SchemaErrorsHaveLineAndExpectation) {
  std::string base = kGood;
  auto with = [&](const std::string& from, const std::string& to) {
    std::string s = base;
    s.replace(s.find(from), from.size(), to);
    return load_error(s);
  };
  EXPECT_EQ(with("class: network-ib", "class: network"), "test.yaml:3: unknown class 'network' (expected a failure class of docs/OUTPUT.md)");
  EXPECT_EQ(with("severity: error", "severity: fatal"), "test.yaml:4: severity must be info, warn, error or critical");
  EXPECT_EQ(with("role: cause", "role: reason"), "test.yaml:5: role must be cause, symptom or context");
  EXPECT_EQ(with("priority: 80", "priority: 101"), "test.yaml:6: priority must be an integer 0..100");
  EXPECT_EQ(with("id: test.one", "id: Test One"), "test.yaml:2: id 'Test One' must be lower-case dotted words (e.g. nccl.ib.completion-error)");
  EXPECT_NE(with("  title: one\n", "  titel: one\n").find("test.yaml:7: unknown key 'titel'"), std::string::npos);
  EXPECT_NE(with("[{action: do it, env: NCCL_IB_GID_INDEX=3}]", "[{env: X=1}]").find("test.yaml:10: fix without 'action'"), std::string::npos);
  EXPECT_EQ(with("  title: one\n", ""), "test.yaml:2: signature without 'title'");
  EXPECT_EQ(load_error("sigs: []\n"), "test.yaml:1: expected a top-level 'signatures:' list");
}

TEST(SignatureLoader, BadPatternNamesItsLine) {
  std::string s = kGood;
  s.replace(s.find("'with error (?P<status>\\d+)'"), 28, "'with (unclosed'");
  std::string e = load_error(s);
  EXPECT_EQ(e.rfind("test.yaml:9: pattern of 'test.one' does not compile: ", 0), 0u) << e;
}

TEST(SignatureLoader, DuplicateIdRejected) {
  std::string s = kGood;
  s += std::string(kGood).substr(std::string("signatures:\n").size());
  EXPECT_EQ(load_error(s), "test.yaml:13: duplicate id 'test.one'");
}

TEST(SignatureLoader, RefinementNamesAKnownSignatureAndClass) {
  const std::string ok = std::string(kGood) + "  refine: [{with: test.one, class: config-invalid, why: because}]\n";
  auto r = SignatureSet::load(ok, "test.yaml");
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->all()[0].refine.size(), 1u);
  EXPECT_EQ(r->all()[0].refine[0].with_index, 0u);
  EXPECT_EQ(r->all()[0].refine[0].klass, "config-invalid");
  EXPECT_EQ(load_error(std::string(kGood) + "  refine: [{with: test.two, class: other, why: x}]\n"),
            "test.yaml:2: refinement of 'test.one' names unknown signature 'test.two'");
  EXPECT_EQ(load_error(std::string(kGood) + "  refine: [{with: test.one, class: net, why: x}]\n"),
            "test.yaml:13: unknown class 'net' in refinement (expected a failure class of docs/OUTPUT.md)");
  EXPECT_EQ(load_error(std::string(kGood) + "  refine: [{with: test.one, class: other}]\n"),
            "test.yaml:13: refinement needs one of 'with' (a signature id) or 'nccl_below' (a version), 'class' and 'why'");
  EXPECT_EQ(load_error(std::string(kGood) + "  refine: {with: test.one}\n"), "test.yaml:13: 'refine' must be a list");
}

// A version refinement (nccl_below, job_has) is checked by the verdict, not resolved as a signature.
TEST(SignatureLoader, VersionRefinementNeedsAVersionAndAClass) {
  auto r = SignatureSet::load(std::string(kGood) + "  refine: [{nccl_below: 2.12.0, job_has: timeout-hang, class: "
                                                   "timeout-hang, why: 'NCCL {nccl_version}'}]\n",
                              "test.yaml");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->all()[0].refine[0].nccl_below, "2.12.0");
  EXPECT_EQ(r->all()[0].refine[0].job_has, "timeout-hang");
  EXPECT_TRUE(r->all()[0].refine[0].with.empty());
  EXPECT_EQ(load_error(std::string(kGood) + "  refine: [{nccl_below: soon, class: other, why: x}]\n"),
            "test.yaml:13: nccl_below must be a version such as 2.12.0");
  EXPECT_EQ(load_error(std::string(kGood) + "  refine: [{nccl_below: 2.12.0, job_has: slow, class: other, why: x}]\n"),
            "test.yaml:13: unknown class 'slow' in refinement (expected a failure class of docs/OUTPUT.md)");
  EXPECT_EQ(load_error(std::string(kGood) + "  refine: [{with: test.one, nccl_below: 2.12.0, class: other, why: x}]\n"),
            "test.yaml:13: refinement needs one of 'with' (a signature id) or 'nccl_below' (a version), 'class' and 'why'");
  EXPECT_EQ(load_error(std::string(kGood) + "  refine: [{with: test.one, job_has: other, class: other, why: x}]\n"),
            "test.yaml:13: job_has goes with nccl_below, not with 'with'");
}

}  // namespace
}  // namespace ncdx::knowledge
