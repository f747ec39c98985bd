// Every knowledge file shipped inside the binary loads. A broken one does not fail loudly at run
// time: its users degrade to "no rows" (error_tokens.yaml had a comment line without '#' for a
// day, and with no evidence tokens the inferred verdict of issue #10 §4 never fired: one-line
// logs such as "RuntimeError: … Connection reset by peer" ended as "no failure found").
#include <gtest/gtest.h>

#include "knowledge/audit_rules.h"
#include "knowledge/doctor_fixes.h"
#include "knowledge/env_vars.h"
#include "knowledge/error_tokens.h"
#include "knowledge/findings.h"
#include "knowledge/gpu_models.h"
#include "knowledge/message_catalogue.h"
#include "knowledge/model_families.h"
#include "knowledge/nccl_tuning.h"
#include "knowledge/signatures.h"
#include "knowledge/verl_facts.h"
#include "knowledge/verl_schema.h"
#include "knowledge/xid.h"

using namespace ncdx::knowledge;

TEST(EmbeddedTables, EveryShippedFileLoads) {
  EXPECT_TRUE(error_tokens_status().is_ok()) << error_tokens_status().message();
  EXPECT_FALSE(error_tokens().evidence.empty());
  EXPECT_FALSE(error_tokens().families.empty());
  EXPECT_TRUE(xid_table_status().is_ok()) << xid_table_status().message();
  EXPECT_TRUE(finding_table_status().is_ok()) << finding_table_status().message();
  EXPECT_TRUE(doctor_fix_table_status().is_ok()) << doctor_fix_table_status().message();
  EXPECT_TRUE(model_table_status().is_ok()) << model_table_status().message();
  auto a = audit_rules();
  EXPECT_TRUE(a.ok()) << a.status().message();
  auto g = gpu_models();
  EXPECT_TRUE(g.ok()) << g.status().message();
  auto n = nccl_tuning();
  EXPECT_TRUE(n.ok()) << n.status().message();
  auto f = VerlFacts::get();
  EXPECT_TRUE(f.ok()) << f.status().message();
  auto v = VerlSchema::get();
  EXPECT_TRUE(v.ok()) << v.status().message();
  auto s = SignatureSet::load_embedded();
  EXPECT_TRUE(s.ok()) << s.status().message();
  EXPECT_GT(message_catalogue().indexed(), 1000u);
  EXPECT_FALSE(nccl_vars().empty());
  EXPECT_FALSE(torch_vars().empty());
}
