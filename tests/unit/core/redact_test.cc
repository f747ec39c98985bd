#include "core/redact.h"

#include <gtest/gtest.h>

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
