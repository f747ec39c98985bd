#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "analyze/config/env_file.h"
#include <unistd.h>  // getpid: a temp dir per test process

using namespace ncdx;

TEST(EnvFile, ParsesShellStyle) {
  auto r = analyze::parse_env_file(
      "# comment\n\nexport NCCL_DEBUG=WARN\nNCCL_SOCKET_IFNAME='^docker,lo'  # trailing\n"
      "A=\"x \\\"y\\\"\"\nB=\r\nexport\tC=1\n",
      "f.env");
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->size(), 5u);
  EXPECT_EQ((*r)[0].name, "NCCL_DEBUG");
  EXPECT_EQ((*r)[0].origin, "f.env:3");
  EXPECT_EQ((*r)[1].value, "^docker,lo");
  EXPECT_EQ((*r)[2].value, "x \"y\"");
  EXPECT_EQ((*r)[3].value, "");
  EXPECT_EQ((*r)[4].name, "C");
}

TEST(EnvFile, BadLinesAreBadInputWithFileLine) {
  struct Case { const char* text; const char* expect; };
  for (auto c : {Case{"A=1\nnot a line\n", "f.env:2"}, Case{"A='x\n", "f.env:1"}, Case{"1A=2\n", "f.env:1"},
                 Case{"A=\"x\n", "f.env:1"}, Case{"A=x y\n", "f.env:1"}, Case{"=x\n", "f.env:1"}}) {
    auto r = analyze::parse_env_file(c.text, "f.env");
    ASSERT_FALSE(r.ok()) << c.text;
    EXPECT_EQ(r.status().code(), core::Exit::bad_input);
    EXPECT_EQ(r.status().message().rfind(c.expect, 0), 0u) << r.status().message();
  }
}

TEST(EnvFile, MoreThanAnyProcessEnvironmentIsBadInput) {
  // 6 MiB is what execve(2) lets a process receive (fs/exec.c): an assignment here takes 35 bytes
  // (26 + '=' NUL + 8-byte pointer), so 150 000 stay under it and line 179 756 crosses it.
  auto lines = [](int n) {
    std::string t;
    for (int i = 0; i < n; ++i) t += "NCCL_VAR_" + std::to_string(100000 + i) + "=value_1234\n";
    return t;
  };
  auto ok = analyze::parse_env_file(lines(150000), "big.env");
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  EXPECT_EQ(ok->size(), 150000u);
  auto r = analyze::parse_env_file(lines(300000), "big.env");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), core::Exit::bad_input);
  EXPECT_EQ(r.status().message().rfind("big.env:179756:", 0), 0u) << r.status().message();
  EXPECT_NE(r.status().message().find("6 MiB"), std::string::npos) << r.status().message();
}

TEST(EnvFile, NcclConfIsReadVerbatim) {
  auto s = analyze::parse_nccl_conf("# c\nNCCL_DEBUG=INFO\nno equals\nNCCL_X= spaced \"q\"\n", "/etc/nccl.conf");
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[1].value, " spaced \"q\"");
  EXPECT_EQ(s[1].origin, "/etc/nccl.conf:4");
}

TEST(EnvFile, PrecedenceEnvThenUserThenSystem) {
  auto root = std::filesystem::temp_directory_path() / ("ncdx_envfile_test-" + std::to_string(::getpid()));
  std::filesystem::remove_all(root);
  std::filesystem::create_directories(root / "etc");
  std::filesystem::create_directories(root / "home/u");
  std::ofstream(root / "etc/nccl.conf") << "NCCL_DEBUG=INFO\nNCCL_IB_HCA=mlx5_0\nNCCL_P2P_LEVEL=NVL\n";
  std::ofstream(root / "home/u/.nccl.conf") << "NCCL_IB_HCA=mlx5_1\n";
  std::ofstream(root / "etc/custom.conf") << "NCCL_P2P_LEVEL=PIX\n";
  core::FileSystem fs(root);
  std::vector<analyze::EnvSetting> env = {{"NCCL_DEBUG", "WARN", "env"}};
  auto e = analyze::effective_env(env, fs, "/home/u", core::V("2.21.5"));
  EXPECT_EQ(e.env["NCCL_DEBUG"], "WARN");
  EXPECT_EQ(e.env["NCCL_IB_HCA"], "mlx5_1");
  EXPECT_EQ(e.origin.get("NCCL_IB_HCA"), "/home/u/.nccl.conf:1");
  EXPECT_EQ(e.env["NCCL_P2P_LEVEL"], "NVL");
  EXPECT_EQ(e.shadowed.size(), 2u);
  // NCCL_CONF_FILE replaces ~/.nccl.conf from 2.23.4 on, and is ignored before.
  env.push_back({"NCCL_CONF_FILE", "/etc/custom.conf", "env"});
  auto n = analyze::effective_env(env, fs, "/home/u", core::V("2.23.4"));
  EXPECT_EQ(n.env["NCCL_P2P_LEVEL"], "PIX");
  EXPECT_EQ(n.env["NCCL_IB_HCA"], "mlx5_0");
  auto o = analyze::effective_env(env, fs, "/home/u", core::V("2.22.3"));
  EXPECT_EQ(o.env["NCCL_P2P_LEVEL"], "NVL");
  std::filesystem::remove_all(root);
}
