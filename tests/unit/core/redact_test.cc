#include "core/redact.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace ncdx::core;

TEST(Redact, SecretNames) {
  EXPECT_TRUE(is_secret_name("HF_TOKEN"));
  EXPECT_TRUE(is_secret_name("WANDB_API_KEY"));
  EXPECT_TRUE(is_secret_name("db_password"));
  EXPECT_FALSE(is_secret_name("NCCL_IB_HCA"));
  EXPECT_EQ(redact_value("HF_TOKEN", "hf_abc"), "<redacted>");
  EXPECT_EQ(redact_value("NCCL_DEBUG", "INFO"), "INFO");
}

TEST(Redact, InText) {
  EXPECT_EQ(redact_text("export HF_TOKEN=hf_abc NCCL_DEBUG=INFO"),
            "export HF_TOKEN=<redacted> NCCL_DEBUG=INFO");
}

// Issue #12 item 8: every form a secret was seen leaking in, by name and by value.
TEST(Redact, NameForms) {
  const char* tok = "abcdEFGH1234567890xyz";
  struct Case { std::string in, must_keep; };
  std::vector<Case> cases = {
      {std::string("HF_TOKEN=\"") + tok + " more\" next", "next"},
      {std::string("HF_TOKEN='") + tok + "'", "HF_TOKEN="},
      {std::string("WANDB_API_KEY: ") + tok, "WANDB_API_KEY:"},
      {std::string("{\"HF_TOKEN\": \"") + tok + "\", \"NCCL_DEBUG\": \"INFO\"}", "\"INFO\""},
      {std::string("{'api_key': '") + tok + "'}", "api_key"},
      {std::string("--hf-token=") + tok, "--hf-token="},
      {std::string("export AWS_SECRET_ACCESS_KEY=") + tok, "export"},
  };
  for (const auto& c : cases) {
    auto out = redact_text(c.in);
    EXPECT_EQ(out.find(tok), std::string::npos) << c.in << " -> " << out;
    EXPECT_NE(out.find("<redacted>"), std::string::npos) << c.in;
    EXPECT_NE(out.find(c.must_keep), std::string::npos) << c.in << " -> " << out;
  }
}

TEST(Redact, ValueShapes) {
  std::vector<std::string> secrets = {
      "ghp_" + std::string(36, 'a'),
      "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz",
      "hf_" + std::string(34, 'Z'),
      "sk-proj-" + std::string(40, 'q'),
      "xoxb-123456789012-abcdefghijkl",
      "AKIAIOSFODNN7EXAMPLE",
  };
  for (const auto& s : secrets) {
    for (const auto& line : {"MY_VAR=" + s, "using " + s + " now", "x(" + s + ")"}) {
      auto out = redact_text(line);
      EXPECT_EQ(out.find(s), std::string::npos) << line << " -> " << out;
    }
    EXPECT_EQ(redact_value("INNOCENT", s), "<redacted>");
    EXPECT_TRUE(looks_secret_value(s));
  }
  EXPECT_EQ(redact_text("git clone https://user:s3cretpw@github.com/x/y"), "git clone https://user:<redacted>@github.com/x/y");
  EXPECT_EQ(redact_value("PIP_INDEX_URL", "https://bob:hunter2@pypi.example.com/simple"),
            "https://bob:<redacted>@pypi.example.com/simple");
  auto bearer = redact_text("curl -H 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig' x");
  EXPECT_EQ(bearer.find("eyJhbGci"), std::string::npos) << bearer;
}

TEST(Redact, KeepsWhatIsNotSecret) {
  for (std::string s : {"NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB eth0:10.0.0.1<0>",
                        "NCCL_DEBUG=INFO NCCL_IB_HCA=mlx5", "http://10.0.0.1:8265/api", "monkey: 3 sk-short",
                        "ghp_short", "task: train", "ranks 0:7 key order"})
    EXPECT_EQ(redact_text(s), s);
  EXPECT_EQ(redact_value("NCCL_SOCKET_IFNAME", "eth0"), "eth0");
}

TEST(Redact, WordsThatOnlyLookSecret) {
  EXPECT_FALSE(is_secret_name("tokenizer"));
  EXPECT_FALSE(is_secret_name("max_tokens"));
  EXPECT_FALSE(is_secret_name("pad_token_id"));
  EXPECT_TRUE(is_secret_name("HF_TOKEN"));
  EXPECT_TRUE(is_secret_name("tokenizer_auth_token"));
  EXPECT_EQ(redact_text("LLM(tokenizer='/models/qwen', max_tokens=512)"), "LLM(tokenizer='/models/qwen', max_tokens=512)");
}

TEST(Redact, AuthorizationStaysSecret) { EXPECT_TRUE(is_secret_name("Authorization")); }

TEST(Redact, YamlKeys) {
  EXPECT_EQ(redact_text("  hf_token: abcdef123456"), "  hf_token: <redacted>");
  EXPECT_EQ(redact_text("Key: 5"), "Key: 5");
}
