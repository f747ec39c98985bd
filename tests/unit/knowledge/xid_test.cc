#include <gtest/gtest.h>

#include "knowledge/signatures.h"
#include "knowledge/xid.h"

namespace ncdx::knowledge {
namespace {

TEST(Xid, CoversRequiredCodes) {
  ASSERT_TRUE(xid_table_status().is_ok()) << xid_table_status().message();
  for (int code : {13, 31, 43, 45, 48, 61, 62, 63, 64, 74, 79, 92, 94, 95, 119, 120}) {
    const XidInfo* x = xid_info(code);
    ASSERT_NE(x, nullptr) << "XID " << code;
    EXPECT_EQ(x->code, code);
    EXPECT_FALSE(x->name.empty());
    EXPECT_FALSE(x->meaning.empty());
    EXPECT_FALSE(x->action.empty());
  }
  EXPECT_EQ(xid_info(79)->severity, core::Severity::critical);
  EXPECT_EQ(xid_info(79)->klass, "cuda-hardware");
  EXPECT_EQ(xid_info(99999), nullptr);  // unknown stays unknown
}

TEST(Xid, SignatureExtractsCodeThatTheTableKnows) {
  auto set = SignatureSet::load_embedded();
  ASSERT_TRUE(set.ok()) << set.status().message();
  std::vector<SignatureMatch> out;
  set->match("NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus.", out);
  bool found = false;
  for (const auto& m : out)
    if (set->all()[m.index].id == "kernel.nvrm-xid") {
      found = true;
      EXPECT_EQ(m.fields.at("xid"), "79");
      EXPECT_EQ(m.fields.at("pci"), "0000:3b:00");
      ASSERT_NE(xid_info(std::stoi(m.fields.at("xid"))), nullptr);
    }
  EXPECT_TRUE(found);
}

TEST(Xid, ParseErrorsNameTheLine) {
  auto r = parse_xid_yaml("xids:\n- code: 79\n  name: x\n  meaning: y\n  action: z\n  class: cuda-hardware\n"
                          "- code: nope\n  name: x\n  meaning: y\n  action: z\n  class: cuda-hardware\n  severity: error\n",
                          "t.yaml");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), core::Exit::bad_input);
  EXPECT_NE(r.status().message().find("t.yaml:2:"), std::string::npos) << r.status().message();  // first entry lacks severity
  auto dup = parse_xid_yaml("xids:\n- {code: 1, name: a, meaning: b, action: c, class: other, severity: info}\n"
                            "- {code: 1, name: a, meaning: b, action: c, class: other, severity: info}\n", "d.yaml");
  ASSERT_FALSE(dup.ok());
  EXPECT_NE(dup.status().message().find("d.yaml:3: duplicate XID 1"), std::string::npos) << dup.status().message();
}

}  // namespace
}  // namespace ncdx::knowledge
