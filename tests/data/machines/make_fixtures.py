#!/usr/bin/env python3
"""Generates the doctor fixture machines (rooted sysfs/procfs trees + nvml.json).

Run from this directory: `python3 make_fixtures.py`. Only the files the probes read are
written, so the trees stay small. The shapes follow real machines (see SOURCES.md).
"""
import json, os, shutil, struct

HERE = os.path.dirname(os.path.abspath(__file__))


def w(root, path, text, mode="w"):
    p = os.path.join(root, path.lstrip("/"))
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, mode) as f:
        f.write(text)


def link(root, path, target):
    p = os.path.join(root, path.lstrip("/"))
    os.makedirs(os.path.dirname(p), exist_ok=True)
    os.symlink(target, p)


def config_space(acs_ctrl):
    """PCI config space cut after the first extended capability (real files are 4096 bytes; the
    probe needs > 256). acs_ctrl: ACS Control value, -1 = AER only (no ACS), None = the 64-byte
    view an unprivileged reader gets."""
    b = bytearray(0x108)
    b[0:4] = struct.pack("<HH", 0x8086, 0x1234)
    if acs_ctrl is None:
        return bytes(b[:64])
    if acs_ctrl == -1:
        b[0x100:0x104] = struct.pack("<I", 0x0001 | (1 << 16))  # AER, last
    else:
        b[0x100:0x104] = struct.pack("<I", 0x000D | (1 << 16))  # ACS, last
        b[0x104:0x108] = struct.pack("<HH", 0x005F, acs_ctrl)
    return bytes(b)


class Machine:
    def __init__(self, name):
        self.root = os.path.join(HERE, name)
        shutil.rmtree(self.root, ignore_errors=True)
        os.makedirs(self.root)

    def os(self, host, kernel="5.15.0-105-generic", driver="550.90.07", mem_kb=2113623424 // 1024,
           shm="size=1056g", memlock="unlimited", nofile="1048576", cmdline="BOOT_IMAGE=/vmlinuz ro iommu=pt",
           iommu_groups=4, governor="performance", modules=("nvidia", "nvidia_uvm", "nvidia_peermem", "mlx5_core", "mlx5_ib", "ib_core"),
           numa={"node0": "0-191"}, env=None, kmsg="", cgroup_cpu=None, docker=False):
        r = self.root
        w(r, "/proc/sys/kernel/hostname", host + "\n")
        w(r, "/proc/sys/kernel/osrelease", kernel + "\n")
        if driver:
            w(r, "/proc/driver/nvidia/version",
              f"NVRM version: NVIDIA UNIX x86_64 Kernel Module  {driver}  Fri May 31 09:35:42 UTC 2024\nGCC version:  gcc version 12.3.0\n")
        w(r, "/proc/meminfo", f"MemTotal:       {mem_kb} kB\nMemFree:        {mem_kb // 2} kB\n")
        w(r, "/proc/self/mounts", f"overlay / overlay rw,relatime 0 0\nshm /dev/shm tmpfs rw,nosuid,nodev,{shm} 0 0\n")

        def lim(v):
            return v.ljust(21)
        w(r, "/proc/self/limits",
          "Limit                     Soft Limit           Hard Limit           Units     \n"
          f"Max open files            {lim(nofile)}{lim(nofile)}files     \n"
          f"Max locked memory         {lim(memlock)}{lim(memlock)}bytes     \n")
        w(r, "/proc/cmdline", cmdline + "\n")
        w(r, "/proc/modules", "".join(f"{m} 1234 0 - Live 0x0000000000000000\n" for m in modules))
        for g in range(iommu_groups):
            w(r, f"/sys/kernel/iommu_groups/{g}/type", "DMA\n")
        for n, cpus in numa.items():
            w(r, f"/sys/devices/system/node/{n}/cpulist", cpus + "\n")
        if governor:
            for c in range(2):
                w(r, f"/sys/devices/system/cpu/cpu{c}/cpufreq/scaling_governor", governor + "\n")
        w(r, "/ncdx/env.json", json.dumps(env or {}, indent=1) + "\n")
        if kmsg:
            w(r, "/dev/kmsg", kmsg)
        if cgroup_cpu:
            w(r, "/sys/fs/cgroup/cpu.max", cgroup_cpu + "\n")
            w(r, "/sys/fs/cgroup/memory.max", "max\n")
        if docker:
            w(r, "/.dockerenv", "")

    def pci_dev(self, chain, bdf, vendor, device, klass, numa, speed, max_speed, width, max_width, driver, acs=None):
        """chain: list of bridge bdfs from the root port down (root complex derived from the first)."""
        dom, bus = chain[0].split(":")[0:2]
        rootc = f"pci{dom}:{bus}"
        path = "/sys/devices/" + rootc
        for i, b in enumerate(chain):
            path += "/" + b
            if not os.path.exists(os.path.join(self.root, path.lstrip("/"), "config")):
                w(self.root, path + "/config", config_space(acs[i] if acs else -1), "wb")
                if not os.path.lexists(os.path.join(self.root, "sys/bus/pci/devices", b)):
                    link(self.root, "/sys/bus/pci/devices/" + b, "../../.." + path.replace("/sys", "", 1))
        path += "/" + bdf
        for f, v in (("vendor", vendor), ("device", device), ("class", klass), ("numa_node", str(numa)),
                     ("current_link_speed", speed), ("max_link_speed", max_speed),
                     ("current_link_width", str(width)), ("max_link_width", str(max_width))):
            w(self.root, path + "/" + f, v + "\n")
        if driver:
            link(self.root, path + "/driver", "../../../../../../bus/pci/drivers/" + driver)
        link(self.root, "/sys/bus/pci/devices/" + bdf, "../../.." + path.replace("/sys", "", 1))
        return path

    def net(self, name, operstate, mtu, speed, typ=1, pci_path=None):
        b = "/sys/class/net/" + name
        w(self.root, b + "/operstate", operstate + "\n")
        w(self.root, b + "/mtu", f"{mtu}\n")
        w(self.root, b + "/type", f"{typ}\n")
        if speed is not None:
            w(self.root, b + "/speed", f"{speed}\n")
        if pci_path:
            link(self.root, b + "/device", "../../.." + pci_path.replace("/sys", "", 1))

    def ib(self, name, pci_path, state="4: ACTIVE", phys="5: LinkUp", rate="400 Gb/sec (4X NDR)", layer="InfiniBand",
           gids=(("fe80:0000:0000:0000:a088:c203:0001:0001", "IB/RoCE v1"),), counters=None):
        b = f"/sys/class/infiniband/{name}"
        w(self.root, b + "/fw_ver", "28.39.1002\n")
        w(self.root, b + "/hca_type", "MT4129\n")
        link(self.root, b + "/device", "../../.." + pci_path.replace("/sys", "", 1))
        p = b + "/ports/1"
        for f, v in (("state", state), ("phys_state", phys), ("rate", rate), ("link_layer", layer)):
            w(self.root, p + "/" + f, v + "\n")
        for i, (gid, typ) in enumerate(gids):
            w(self.root, f"{p}/gids/{i}", gid + "\n")
            w(self.root, f"{p}/gid_attrs/types/{i}", typ + "\n")
        base = {"symbol_error": 0, "link_downed": 0, "port_rcv_errors": 0, "port_xmit_discards": 0, "link_error_recovery": 0}
        base.update(counters or {})
        for k, v in base.items():
            w(self.root, f"{p}/counters/{k}", f"{v}\n")

    def nccl(self, path, version, cuda="12.4"):
        w(self.root, path, f"\x7fELF fixture stand-in\0NCCL version {version}+cuda{cuda}\0", "w")

    def pkg(self, site, dist, version):
        w(self.root, f"{site}/{dist}-{version}.dist-info/METADATA", f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n\nbody\n")

    def nvml(self, info):
        with open(os.path.join(self.root, "nvml.json"), "w") as f:
            json.dump(info, f, indent=1, sort_keys=True)
            f.write("\n")


def gpu(index, bus, name, arch, cc, mem_gb, links=None, **kw):
    g = {"index": index, "name": name, "uuid": f"GPU-{index:08x}-fixture-{bus.replace(':', '').replace('.', '')}",
         "bus_id": bus, "arch": arch, "cc_major": cc[0], "cc_minor": cc[1],
         "mem_total": mem_gb << 30, "mem_used": 560 << 20, "processes": [], "temp": 34, "temp_slowdown": 87,
         "temp_shutdown": 92, "power_mw": 72000, "power_limit_mw": 700000, "sm_clock": 345, "sm_clock_max": 1980,
         "clock_event_reasons": 1, "ecc_current": True, "ecc_pending": True, "ecc_volatile_unc": 0, "ecc_aggregate_unc": 0,
         "retired_sbe": None, "retired_dbe": None, "retired_pending": None,
         "remap_corr": 0, "remap_unc": 0, "remap_pending": False, "remap_failure": False,
         "pcie_gen": 1, "pcie_max_gen": 5, "pcie_width": 16, "pcie_max_width": 16, "pcie_replay": 0,
         "persistence": True, "compute_mode": 0, "mig_current": 0, "mig_pending": 0,
         "nvlinks": links or [], "cpu_affinity": "0-191", "numa_node": 0, "fabric_state": 0, "fabric_status": None, "errors": {}}
    g.update(kw)
    return g


def switch_links(n=18, version=6, down=()):
    return [{"link": l, "active": l not in down, "version": version, "remote_bus_id": "0000:00:00.0", "remote_type": 2,
             "replay": 0, "recovery": 0, "crc_flit": 0, "crc_data": 0} for l in range(n)]


def nvml_info(gpus, topo, p2p, driver="550.90.07", cuda=12040, init=None):
    d = {"source": {"state": "ok", "detail": ""}, "driver_version": driver, "nvml_version": "12." + driver,
         "cuda_driver_version": cuda, "device_count": len(gpus), "gpus": gpus, "topology": topo, "p2p": p2p}
    if init is not None:
        d["fake_init_return"] = init
    return d


def matrix(n, f):
    return [[None if i == j else f(i, j) for j in range(n)] for i in range(n)]


SPEED5, SPEED4 = "32.0 GT/s PCIe", "16.0 GT/s PCIe"
H100 = ("0x10de", "0x2330", "0x030200")
NIC_CX7 = ("0x15b3", "0x1021", "0x020700")


def hgx(m, ngpu, gpu_buses, nic_buses, numa_of=lambda i: 0, nic_state=None):
    """One PCIe switch per GPU/NIC pair under its own root complex (HGX H100 layout)."""
    nic_paths = []
    for i in range(ngpu):
        rb = int(gpu_buses[i].split(":")[1], 16) - 3
        root = f"0000:{rb:02x}:01.0"
        up = f"0000:{rb + 1:02x}:00.0"
        chain_g = [root, up, f"0000:{rb + 2:02x}:00.0"]
        chain_n = [root, up, f"0000:{rb + 2:02x}:01.0"]
        m.pci_dev(chain_g, gpu_buses[i], *H100, numa_of(i), SPEED5, SPEED5, 16, 16, "nvidia", acs=[0, 0, 0])
        if i < len(nic_buses):
            nic_paths.append(m.pci_dev(chain_n, nic_buses[i], *NIC_CX7, numa_of(i), SPEED5, SPEED5, 16, 16, "mlx5_core", acs=[0, 0, 0]))
    return nic_paths


def dgx_h100():
    m = Machine("dgx-h100")
    m.os("dgx-h100-01", env={"NCCL_IB_HCA": "mlx5_0,mlx5_1,mlx5_2,mlx5_3,mlx5_4,mlx5_5,mlx5_6,mlx5_7"})
    buses = [f"0000:{b:02x}:00.0" for b in (0x1b, 0x43, 0x52, 0x61, 0x9d, 0xc3, 0xd1, 0xdf)]
    nics = [f"0000:{int(b.split(':')[1], 16) + 1:02x}:00.0" for b in buses]
    paths = hgx(m, 8, buses, nics)
    for i, p in enumerate(paths):
        m.ib(f"mlx5_{i}", p)
    m.net("lo", "unknown", 65536, None, 772)
    m.net("enp170s0f0", "up", 9000, 100000, 1)
    m.net("ibp27s0", "up", 4092, 400000, 32, paths[0])
    m.net("ibp68s0", "up", 4092, 400000, 32, paths[1])
    site = "/usr/local/lib/python3.10/dist-packages"
    m.nccl(site + "/nvidia/nccl/lib/libnccl.so.2", "2.21.5")
    m.pkg(site, "torch", "2.5.1")
    m.pkg(site, "nvidia_nccl_cu12", "2.21.5")
    m.pkg(site, "ray", "2.40.0")
    gpus = [gpu(i, b, "NVIDIA H100 80GB HBM3", 9, (9, 0), 80, switch_links(), fabric_state=3, fabric_status=0) for i, b in enumerate(buses)]
    m.nvml(nvml_info(gpus, matrix(8, lambda i, j: 40), matrix(8, lambda i, j: 0)))


def a100_pcie_acs():
    m = Machine("a100-pcie-acs")
    m.os("a100-pcie-07", kernel="5.4.0-182-generic", driver="535.183.01", mem_kb=528000000, shm="size=32g",
         cmdline="BOOT_IMAGE=/vmlinuz ro intel_iommu=on", iommu_groups=6, governor="powersave",
         modules=("nvidia", "nvidia_uvm", "mlx5_core", "mlx5_ib", "ib_core"), numa={"node0": "0-31,64-95", "node1": "32-63,96-127"})
    A100 = ("0x10de", "0x20b5", "0x030200")
    buses = ["0000:1b:00.0", "0000:1c:00.0", "0000:3d:00.0", "0000:3e:00.0"]
    # Two PCIe switches, two GPUs each; ACS P2P redirect on (SV|RR|CR|UF = 0x1d) on downstream ports.
    for sw, (rb, gs) in enumerate(((0x18, buses[:2]), (0x3a, buses[2:]))):
        root = f"0000:{rb:02x}:02.0"
        up = f"0000:{rb + 1:02x}:00.0"
        for k, g in enumerate(gs):
            down = f"0000:{rb + 2:02x}:{k:02x}.0"
            m.pci_dev([root, up, down], g, *A100, 0, SPEED4, SPEED4, 16, 16, "nvidia", acs=[0, 0, 0x1d])
    nic = m.pci_dev(["0000:5d:02.0"], "0000:5e:00.0", "0x15b3", "0x101d", "0x020000", 0, SPEED4, SPEED4, 16, 16, "mlx5_core")
    m.ib("mlx5_0", nic, rate="100 Gb/sec (4X EDR)", layer="Ethernet",
         gids=(("fe80:0000:0000:0000:0e42:a1ff:fe2b:3c4d", "IB/RoCE v1"), ("fe80:0000:0000:0000:0e42:a1ff:fe2b:3c4d", "RoCE v2"),
               ("0000:0000:0000:0000:0000:ffff:0a00:0007", "RoCE v2")))
    m.net("lo", "unknown", 65536, None, 772)
    m.net("ens1f0np0", "up", 9000, 100000, 1, nic)
    m.net("eno1", "up", 1500, 1000, 1)
    m.nccl("/usr/lib/x86_64-linux-gnu/libnccl.so.2.19.3", "2.19.3")
    os.symlink("libnccl.so.2.19.3", os.path.join(m.root, "usr/lib/x86_64-linux-gnu/libnccl.so.2"))
    lvl = lambda i, j: 10 if i // 2 == j // 2 else 40
    gpus = [gpu(i, b, "NVIDIA A100 80GB PCIe", 7, (8, 0), 80, persistence=(i != 3), power_limit_mw=300000, power_mw=45000,
                pcie_max_gen=4, cpu_affinity="0-31,64-95",
                errors={"nvlink": "not_supported"}) for i, b in enumerate(buses)]
    gpus[2]["processes"] = [{"pid": 48213, "used_bytes": 30 << 30}]
    gpus[2]["mem_used"] = 31 << 30
    m.nvml(nvml_info(gpus, matrix(4, lvl), matrix(4, lambda i, j: 0 if i // 2 == j // 2 else 3), driver="535.183.01", cuda=12020))


def pcie_4gpu():
    m = Machine("pcie-4gpu")
    m.os("ws-4gpu", kernel="6.8.0-45-generic", driver="560.35.03", mem_kb=263000000, shm="size=8g", memlock="8388608",
         cmdline="BOOT_IMAGE=/vmlinuz ro quiet", iommu_groups=0, governor="performance", modules=("nvidia", "nvidia_uvm"),
         numa={"node0": "0-63"}, env={"NCCL_SOCKET_IFNAME": "eth", "NCCL_P2P_LEVEL": "sys"}, cgroup_cpu="400000 100000", docker=True)
    L40S = ("0x10de", "0x26b9", "0x030200")
    buses = ["0000:01:00.0", "0000:21:00.0", "0000:41:00.0", "0000:61:00.0"]
    for i, b in enumerate(buses):
        rb = int(b.split(":")[1], 16) - 1
        m.pci_dev([f"0000:{rb:02x}:01.1"], b, *L40S, 0, SPEED4, SPEED4, 16 if i != 1 else 8, 16, "nvidia", acs=[0])
    m.net("lo", "unknown", 65536, None, 772)
    m.net("eth0", "up", 1500, 10000, 1)
    m.net("docker0", "up", 1500, None, 1)
    site = "/opt/conda/lib/python3.11/site-packages"
    m.nccl(site + "/nvidia/nccl/lib/libnccl.so.2", "2.20.5")
    m.pkg(site, "torch", "2.3.1")
    m.pkg(site, "nvidia_nccl_cu12", "2.20.5")
    m.pkg(site, "vllm", "0.5.3")
    gpus = [gpu(i, b, "NVIDIA L40S", 8, (8, 9), 48, power_limit_mw=350000, fabric_state=None, pcie_max_gen=4, cpu_affinity="0-63",
                pcie_width=16 if i != 1 else 8, errors={"nvlink": "not_supported", "fabric": "not_supported"}) for i, b in enumerate(buses)]
    m.nvml(nvml_info(gpus, matrix(4, lambda i, j: 30), matrix(4, lambda i, j: 0), driver="560.35.03", cuda=12060))


def broken():
    m = Machine("broken")
    kmsg = ("6,1001,12500000,-;mlx5_core 0000:1c:00.0: Port module event: module 0, Cable plugged\n"
            "4,1002,53170123,-;NVRM: Xid (PCI:0000:43:00): 79, pid=0, name=, GPU has fallen off the bus.\n"
            "3,1003,53170200,-;NVRM: GPU 0000:43:00.0: GPU has fallen off the bus.\n")
    m.os("gpu-node-17", shm="size=65536k", memlock="65536", kmsg=kmsg,
         env={"NCCL_IB_MTU": "4096", "NCCL_ASYNC_ERROR_HANDLING": "1", "NCCL_DEBUG": "INFO", "HF_TOKEN": "hf_secret_value"})
    buses = ["0000:1b:00.0", "0000:43:00.0", "0000:52:00.0", "0000:61:00.0"]
    nics = ["0000:1c:00.0", "0000:44:00.0"]
    paths = hgx(m, 4, buses, nics)
    m.ib("mlx5_0", paths[0])
    m.ib("mlx5_1", paths[1], state="1: DOWN", phys="3: Disabled", counters={"link_downed": 255, "symbol_error": 17})
    m.net("lo", "unknown", 65536, None, 772)
    m.net("ibp27s0", "up", 4092, 400000, 32, paths[0])
    m.net("ibp68s0", "up", 2044, 400000, 32, paths[1])
    m.nccl("/usr/lib/x86_64-linux-gnu/libnccl.so.2.18.3", "2.18.3", "12.2")
    os.symlink("libnccl.so.2.18.3", os.path.join(m.root, "usr/lib/x86_64-linux-gnu/libnccl.so.2"))
    site = "/usr/local/lib/python3.10/dist-packages"
    m.nccl(site + "/nvidia/nccl/lib/libnccl.so.2", "2.21.5")
    m.pkg(site, "torch", "2.5.1")
    m.pkg(site, "nvidia_nccl_cu12", "2.21.5")
    m.pkg(site, "verl", "0.3.0")
    gpus = [gpu(i, b, "NVIDIA H100 80GB HBM3", 9, (9, 0), 80, switch_links(down=(7,) if i == 3 else ()), fabric_state=3, fabric_status=0)
            for i, b in enumerate(buses)]
    gpus[1].update(remap_pending=True, remap_unc=1, ecc_volatile_unc=2, ecc_aggregate_unc=2)
    gpus[3]["nvlinks"][7].update(crc_flit=1532, recovery=4)
    m.nvml(nvml_info(gpus, matrix(4, lambda i, j: 40), matrix(4, lambda i, j: 0)))


def nodriver():
    m = Machine("nodriver")
    m.os("fresh-node-03", driver=None, shm="size=65536k", modules=("mlx5_core", "ib_core"))
    buses = [f"0000:{b:02x}:00.0" for b in (0x1b, 0x43, 0x52, 0x61, 0x9d, 0xc3, 0xd1, 0xdf)]
    for i, b in enumerate(buses):
        rb = int(b.split(":")[1], 16) - 3
        m.pci_dev([f"0000:{rb:02x}:01.0", f"0000:{rb + 1:02x}:00.0", f"0000:{rb + 2:02x}:00.0"], b, *H100, 0, SPEED5, SPEED5,
                  16, 16, None)
    m.net("lo", "unknown", 65536, None, 772)
    m.net("eno1", "up", 1500, 25000, 1)
    m.nvml({"source": {"state": "ok", "detail": ""}, "gpus": [], "fake_init_return": 9})


if __name__ == "__main__":
    dgx_h100()
    a100_pcie_acs()
    pcie_4gpu()
    broken()
    nodriver()
