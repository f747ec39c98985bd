#include "model/cost/spec_parse.h"

#include <cmath>
#include <cstdio>

#include "core/strings.h"
#include "knowledge/gpu_models.h"

namespace ncdx::model::cost {
namespace {

core::Status bad(std::string_view item, std::string_view expected) {
  return core::Status::usage("--spec item \"" + std::string(item) + "\": expected " + std::string(expected));
}

std::optional<bool> yes_no(std::string_view v) {
  auto l = core::to_lower(v);
  if (l == "yes" || l == "1" || l == "true" || l == "on") return true;
  if (l == "no" || l == "0" || l == "false" || l == "off") return false;
  return std::nullopt;
}

// NCCL's PCIe bandwidth: width x kvDictPciGen factor / 80 (src/graph/xml.h; Gen4 x16 = 24 GB/s).
std::optional<double> nccl_pcie(int gen, int width) {
  static const double factor[] = {0, 15, 30, 60, 120, 240, 480};
  if (gen < 1 || gen > 6 || width < 1 || width > 32) return std::nullopt;
  return width * factor[gen] / 80.0;
}

}  // namespace

core::Result<ClusterSpec> parse_spec(std::string_view text) {
  ClusterSpec s;
  s.gpus_per_node = 8;
  s.pcie_gbps = 24;
  std::optional<int> links;
  std::optional<bool> nvswitch, gdr;
  bool pcie_given = false, sm_given = false;
  if (core::trim(text).empty()) return core::Status::usage("--spec is empty: expected key=value items, e.g. \"nodes=4,gpus=8,gpu=H100,nic=8x400G-IB\"");
  for (auto raw : core::split(text, ',')) {
    auto item = core::trim(raw);
    if (item.empty()) continue;
    auto eq = item.find('=');
    if (eq == std::string_view::npos) return bad(item, "key=value");
    std::string key = core::to_lower(core::trim(item.substr(0, eq)));
    std::string_view val = core::trim(item.substr(eq + 1));
    if (key == "nodes" || key == "gpus") {
      auto v = core::parse_int(val);
      if (!v || *v < 1 || *v > 1000000) return bad(item, "an integer 1..1000000");
      (key == "nodes" ? s.nodes : s.gpus_per_node) = static_cast<int>(*v);
    } else if (key == "gpu") {
      auto gm = knowledge::gpu_models();
      if (!gm.ok()) return gm.status();
      const auto* m = (*gm)->by_name(val);
      if (!m) m = (*gm)->by_id(core::to_lower(val));
      if (!m) return bad(item, "a GPU model known to ncdx (H100, H200, B200, GH200, A100, A40, L40S, L4, V100, ...)");
      s.gpu = std::string(val);
      if (!sm_given && m->sm) s.sm = *m->sm;
      if (!links) s.nvlink_links = m->nvlink_links.value_or(0);
      if (!pcie_given && m->pcie_gts && m->pcie_width) {
        int gen = m->pcie_gts >= 64 ? 6 : m->pcie_gts >= 32 ? 5 : m->pcie_gts >= 16 ? 4 : 3;
        s.pcie_gbps = nccl_pcie(gen, *m->pcie_width).value_or(24);
      }
    } else if (key == "sm") {
      auto v = core::parse_int(val);
      if (!v || *v < 30 || *v > 200) return bad(item, "a compute capability x10, 30..200 (90 for sm_90)");
      s.sm = static_cast<int>(*v);
      sm_given = true;
    } else if (key == "nvlink") {
      auto l = core::to_lower(val);
      if (l == "none" || l == "no" || l == "0" || l == "pcie") {
        links = 0;
      } else {
        auto digits = l.starts_with("nv") ? l.substr(2) : l;
        auto v = core::parse_int(digits);
        if (!v || *v < 0 || *v > 72) return bad(item, "NV<k> with k = NVLinks per GPU (NV18), or none");
        links = static_cast<int>(*v);
      }
      s.nvlink_links = *links;
    } else if (key == "nvswitch") {
      nvswitch = yes_no(val);
      if (!nvswitch) return bad(item, "yes or no");
    } else if (key == "pcie") {
      auto l = core::to_lower(val);
      int gen = 0, width = 0;
      char tail = 0;
      if (std::sscanf(l.c_str(), "gen%dx%d%c", &gen, &width, &tail) == 2 || std::sscanf(l.c_str(), "gen%d%c", &gen, &tail) == 1) {
        auto b = nccl_pcie(gen, width ? width : 16);
        if (!b) return bad(item, "gen1..gen6 with x1..x32");
        s.pcie_gbps = *b;
      } else if (auto v = core::parse_double(val); v && *v > 0 && *v < 10000) {
        s.pcie_gbps = *v;
      } else {
        return bad(item, "gen<g>x<w> (gen5x16) or GB/s");
      }
      pcie_given = true;
    } else if (key == "p2p") {
      auto b = yes_no(val);
      if (!b) return bad(item, "yes or no");
      s.pcie_p2p = *b;
    } else if (key == "nic") {
      // <k>x<rate>G[-kind]
      auto l = core::to_lower(val);
      std::string kind;
      if (auto dash = l.find('-'); dash != std::string::npos) { kind = l.substr(dash + 1); l = l.substr(0, dash); }
      int k = 1;
      if (auto x = l.find('x'); x != std::string::npos) {
        auto kv = core::parse_int(l.substr(0, x));
        if (!kv || *kv < 1 || *kv > 64) return bad(item, "<count>x<rate>G[-IB|RoCE|EFA|TCP], count 1..64 (8x400G-IB)");
        k = static_cast<int>(*kv);
        l = l.substr(x + 1);
      }
      if (!l.empty() && (l.back() == 'g')) l.pop_back();
      else if (l.ends_with("gbps")) l.resize(l.size() - 4);
      auto rate = core::parse_double(l);
      if (!rate || *rate <= 0 || *rate > 10000) return bad(item, "<count>x<rate>G[-IB|RoCE|EFA|TCP] with a rate in Gb/s (8x400G-IB)");
      s.nics_per_node = k;
      s.nic_gbit = *rate;
      if (kind.empty() || kind == "ib" || kind == "infiniband") s.nic_kind = kind.empty() ? NicKind::Unknown : NicKind::IB;
      else if (kind == "roce") s.nic_kind = NicKind::RoCE;
      else if (kind == "efa") s.nic_kind = NicKind::EFA;
      else if (kind == "tcp" || kind == "socket" || kind == "eth") s.nic_kind = NicKind::Socket;
      else return bad(item, "a NIC kind IB, RoCE, EFA or TCP after '-'");
    } else if (key == "gdr") {
      gdr = yes_no(val);
      if (!gdr) return bad(item, "yes or no");
    } else if (key == "nicpath") {
      auto l = core::to_lower(val);
      if (l == "pix") s.nic_path = NicPath::Pix;
      else if (l == "pxb") s.nic_path = NicPath::Pxb;
      else if (l == "phb" || l == "node") s.nic_path = NicPath::Phb;
      else if (l == "sys") s.nic_path = NicPath::Sys;
      else return bad(item, "the GPU-NIC path of nvidia-smi topo -m: PIX, PXB, PHB (or NODE) or SYS");
    } else if (key == "cpu") {
      auto l = core::to_lower(val);
      if (l == "intel") s.cpu = CpuVendor::Intel;
      else if (l == "amd") s.cpu = CpuVendor::Amd;
      else if (l == "arm" || l == "power" || l == "other") s.cpu = CpuVendor::Other;
      else return bad(item, "intel, amd or arm");
    } else if (key == "collnet" || key == "sharp") {
      auto b = yes_no(val);
      if (!b) return bad(item, "yes or no");
      s.collnet = *b;
    } else if (key == "nvls") {
      auto b = yes_no(val);
      if (!b) return bad(item, "yes or no");
      s.nvls = *b;
    } else {
      return bad(item, "one of the keys nodes, gpus, gpu, sm, nvlink, nvswitch, pcie, p2p, nic, nicpath, gdr, cpu, collnet, nvls");
    }
  }
  s.nvswitch = nvswitch.value_or(s.nvlink_links >= 12 && s.gpus_per_node > 2);
  if (s.nvswitch && s.nvlink_links == 0) return core::Status::usage("--spec: nvswitch=yes needs nvlink=NV<k>");
  // NCCL_NET_GDR_LEVEL defaults to PXB: a NIC behind the CPU (PHB) or the other socket (SYS)
  // is used without GPUDirect RDMA unless gdr=yes says the level was raised.
  s.gdr = gdr.value_or(s.nic_kind != NicKind::Socket && s.nic_path <= NicPath::Pxb);
  if (s.nodes > 1 && s.nics_per_node == 0)
    return core::Status::usage("--spec: nodes=" + std::to_string(s.nodes) + " needs nic=<count>x<rate>G[-kind] (e.g. nic=8x400G-IB)");
  return s;
}

std::string describe(const ClusterSpec& s) {
  char buf[64];
  std::string out = "nodes=" + std::to_string(s.nodes) + ",gpus=" + std::to_string(s.gpus_per_node);
  if (!s.gpu.empty()) out += ",gpu=" + s.gpu;
  out += ",sm=" + std::to_string(s.sm);
  out += s.nvlink_links > 0 ? ",nvlink=NV" + std::to_string(s.nvlink_links) : ",nvlink=none";
  out += std::string(",nvswitch=") + (s.nvswitch ? "yes" : "no");
  std::snprintf(buf, sizeof buf, ",pcie=%g", s.pcie_gbps);
  out += buf;
  if (s.nics_per_node > 0) {
    static const char* kinds[] = {"IB", "RoCE", "EFA", "TCP", ""};
    std::snprintf(buf, sizeof buf, ",nic=%dx%gG", s.nics_per_node, s.nic_gbit);
    out += buf;
    if (s.nic_kind != NicKind::Unknown) out += std::string("-") + kinds[static_cast<int>(s.nic_kind)];
    out += std::string(",gdr=") + (s.gdr ? "yes" : "no");
  }
  if (s.nic_path != NicPath::Pxb) {
    static const char* paths[] = {"PIX", "PXB", "PHB", "SYS"};
    out += std::string(",nicpath=") + paths[static_cast<int>(s.nic_path)];
  }
  if (s.cpu == CpuVendor::Amd) out += ",cpu=amd";
  if (s.collnet) out += ",collnet=yes";
  if (s.nvls) out += std::string(",nvls=") + (*s.nvls ? "yes" : "no");
  return out;
}

}  // namespace ncdx::model::cost
