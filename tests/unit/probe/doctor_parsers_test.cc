// Parsers behind the doctor probes: mount table, limits, PCI config space, kernel messages,
// library versions, NVML bus ids and CPU masks, sysfs link speeds.
#include <gtest/gtest.h>

#include "probe/kmsg_probe.h"
#include "probe/libs_probe.h"
#include "probe/net_probe.h"
#include "probe/nvml_probe.h"
#include "probe/os_probe.h"
#include "probe/pci_probe.h"
#include "probe/sys_reader.h"
#include "vendor/nccl_version.h"

using namespace ncdx::probe;

TEST(DoctorParsers, ShmSizeFromMounts) {
  std::string line;
  EXPECT_EQ(shm_size_from_mounts("shm /dev/shm tmpfs rw,size=65536k 0 0\n", std::nullopt, &line), 64ULL << 20);
  EXPECT_EQ(line, "shm /dev/shm tmpfs rw,size=65536k 0 0");
  // No size= on tmpfs: the kernel default is half of RAM.
  EXPECT_EQ(shm_size_from_mounts("tmpfs /dev/shm tmpfs rw,nosuid 0 0\n", 8ULL << 30), 4ULL << 30);
  EXPECT_EQ(shm_size_from_mounts("tmpfs /dev/shm tmpfs rw,size=50% 0 0\n", 8ULL << 30), 4ULL << 30);
  // The last mount on /dev/shm hides the earlier ones.
  EXPECT_EQ(shm_size_from_mounts("a /dev/shm tmpfs size=1g 0 0\nb /dev/shm tmpfs size=2g 0 0\n", std::nullopt), 2ULL << 30);
  EXPECT_FALSE(shm_size_from_mounts("proc /proc proc rw 0 0\n", std::nullopt));
  EXPECT_FALSE(parse_tmpfs_size("garbage", std::nullopt));
}

TEST(DoctorParsers, AcsFromConfigSpace) {
  std::string cfg(0x108, '\0');
  EXPECT_FALSE(acs_control_from_config(cfg.substr(0, 64)));  // unprivileged 64-byte view
  EXPECT_EQ(acs_control_from_config(cfg), -1);               // no extended capability
  // ACS cap (0x000D, v1, last) at 0x100; control word 0x001d at +6.
  unsigned char acs[] = {0x0d, 0x00, 0x01, 0x00, 0x5f, 0x00, 0x1d, 0x00};
  cfg.replace(0x100, 8, reinterpret_cast<char*>(acs), 8);
  EXPECT_EQ(acs_control_from_config(cfg), 0x1d);
  // A capability chain that loops back to itself ends (bounded walk), no hang.
  unsigned char loop[] = {0x01, 0x00, 0x01, 0x10, 0, 0, 0, 0};  // next = 0x100
  cfg.replace(0x100, 8, reinterpret_cast<char*>(loop), 8);
  EXPECT_EQ(acs_control_from_config(cfg), -1);
}

TEST(DoctorParsers, XidLines) {
  auto e = parse_xid_line("NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, name=python, GPU has fallen off the bus.");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->xid, 79);
  EXPECT_EQ(e->pci, "0000:3b:00");
  EXPECT_FALSE(parse_xid_line("NVRM: loading NVIDIA UNIX x86_64 Kernel Module"));
  auto log = parse_kernel_log(
      "4,1002,53170123,-;NVRM: Xid (PCI:0000:43:00): 48, pid=9, DBE\n"
      " SUBSYSTEM=pci\n"
      "[  812.500000] NVRM: Xid (PCI:0000:1b:00): 13, Graphics Exception\n"
      "garbage line without structure\n");
  ASSERT_EQ(log.xids.size(), 2u);
  EXPECT_EQ(log.xids[0].xid, 48);
  EXPECT_DOUBLE_EQ(*log.xids[0].time_s, 53.170123);
  EXPECT_EQ(log.xids[1].xid, 13);
  EXPECT_DOUBLE_EQ(*log.xids[1].time_s, 812.5);
  EXPECT_EQ(*log.lines, 3);
}

TEST(DoctorParsers, NcclVersions) {
  EXPECT_EQ(version_from_soname("libnccl.so.2.21.5"), "2.21.5");
  EXPECT_FALSE(version_from_soname("libnccl.so.2"));
  EXPECT_EQ(version_from_banner(std::string("\0xx NCCL version 2.28.9+cuda13.0\0", 34)), "2.28.9");
  EXPECT_FALSE(version_from_banner("NCCL version %d.%d.%d"));
  EXPECT_EQ(ncdx::vendor::nccl_version_code_to_string(23007), "2.30.7");
  EXPECT_EQ(ncdx::vendor::nccl_version_code_to_string(2708), "2.7.8");
}

TEST(DoctorParsers, NvmlHelpers) {
  EXPECT_EQ(normalize_bus_id("00000000:1B:00.0"), "0000:1b:00.0");
  EXPECT_EQ(normalize_bus_id("0000:1b:00.0"), "0000:1b:00.0");
  std::vector<unsigned long> mask(2, 0);
  mask[0] = 0xFFUL | (1UL << 63);
  mask[1] = 0x1;
  EXPECT_EQ(cpulist_from_mask(mask), "0-7,63-64");
}

TEST(DoctorParsers, LinkSpeeds) {
  EXPECT_DOUBLE_EQ(*parse_link_speed("16.0 GT/s PCIe"), 16.0);
  EXPECT_FALSE(parse_link_speed("Unknown"));
  EXPECT_EQ(pcie_gen_from_speed(2.5), 1);
  EXPECT_EQ(pcie_gen_from_speed(32.0), 5);
  EXPECT_DOUBLE_EQ(*parse_ib_rate("400 Gb/sec (4X NDR)"), 400);
  EXPECT_DOUBLE_EQ(*parse_ib_rate("2.5 Gb/sec (1X SDR)"), 2.5);
}

TEST(DoctorParsers, NormalizePath) {
  EXPECT_EQ(normalize_path("/sys/bus/pci/devices/../../../devices/x"), "/sys/devices/x");
  EXPECT_EQ(normalize_path("/../.."), "/");
}
