// The fallback of issue #10 §4, end to end: a log that holds an error never ends as "no failure
// found" (a shipped error_tokens.yaml that did not load left these as `none` for a day), and what
// the words say never outranks what an exception's type or a logger's label says.
#include <gtest/gtest.h>

#include "support/triage_test_util.h"

using ncdx::testing::triage_text;

TEST(TriageFallback, AnErrorLineIsNeverNone) {
  auto r = triage_text("a.log", "foo failed: disk error\n");
  EXPECT_EQ(r.verdict.id, "triage.inferred");
  // A generic exception is read by its words (a socket reset) …
  auto s = triage_text("b.log", "RuntimeError: Connection reset by peer while sending the tensor\n");
  EXPECT_EQ(s.verdict.klass, "network-socket");
}

TEST(TriageFallback, AnApplicationExceptionKeepsItsType) {
  // … an application's own exception is not re-read by its words ("No such file" is not config).
  auto r = triage_text("c.log", "FileNotFoundError: [Errno 2] No such file or directory: '/ckpt/step_5/meta.json'\n");
  EXPECT_NE(r.verdict.klass, "config-invalid");
}

TEST(TriageFallback, LoggerLabelsAndInfoPrintsAreNoEvidence) {
  // A Python logger's "- ERROR -" in front of a line that says nothing failed.
  auto r = triage_text("d.log", "2024-05-01 12:00:03,000 - ERROR - NCCL version 2.14.3+cuda11.7\n");
  EXPECT_EQ(r.verdict.id, "triage.none");
  auto q = triage_text("e.log",
                       "libibverbs: Warning: couldn't load driver 'libhns-rdmav34.so': libhns-rdmav34.so: cannot open "
                       "shared object file: No such file or directory\n");
  EXPECT_EQ(q.verdict.id, "triage.none");
}

TEST(TriageFallback, GlooPairErrorsAreAVictimsSocketSymptom) {
  auto r = triage_text("f.log",
                       "[rank3]: RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:545] Read error "
                       "[127.0.0.1]:8628: Connection reset by peer. This is typically caused by a remote worker hanging\n");
  EXPECT_EQ(r.verdict.id, "gloo.pair-io-error");
  EXPECT_EQ(r.verdict.klass, "network-socket");
}
