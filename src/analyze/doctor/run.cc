#include "analyze/doctor/run.h"

#include "core/progress.h"

#include <map>

#include "analyze/doctor/facts.h"
#include "core/fs.h"
#include "measure/cuda_bench.h"
#include "measure/shm_bench.h"
#include "measure/checkpoint.h"
#include "measure/storage_bench.h"

namespace ncdx::analyze {
namespace {

std::string level_code(int v) {
  if (v <= 0) return "X";  // same board (internal)
  if (v <= 10) return "PIX";
  if (v <= 20) return "PXB";
  if (v <= 30) return "PHB";
  if (v <= 40) return "NODE";
  return "SYS";
}

}  // namespace

TopoView build_topo_view(const probe::Inventory& inv) {
  TopoView t;
  // GPUs: NVML order when usable (with bus ids), else PCI order.
  std::vector<const probe::PciDevice*> gpu_pci;
  bool use_nvml = nvml_ok(inv) && !inv.nvml.gpus.empty();
  if (use_nvml) {
    for (const auto& g : inv.nvml.gpus) {
      t.labels.push_back("GPU" + std::to_string(g.index));
      t.devices.push_back(g.bus_id.value_or(""));
      gpu_pci.push_back(g.bus_id ? find_pci(inv, *g.bus_id) : nullptr);
    }
  } else {
    for (std::size_t i = 0; i < inv.pci_gpus.size(); ++i) {
      t.labels.push_back("GPU" + std::to_string(i));
      t.devices.push_back(inv.pci_gpus[i].bdf);
      gpu_pci.push_back(&inv.pci_gpus[i]);
    }
  }
  std::size_t ng = t.labels.size();
  std::vector<const probe::PciDevice*> nic_pci;
  for (std::size_t i = 0; i < inv.ib.size(); ++i) {
    t.labels.push_back("NIC" + std::to_string(i));
    t.devices.push_back(inv.ib[i].name);
    t.legend_nics.push_back("NIC" + std::to_string(i) + ": " + inv.ib[i].name);
    nic_pci.push_back(inv.ib[i].pci_bdf ? find_pci(inv, *inv.ib[i].pci_bdf) : nullptr);
  }
  std::size_t n = t.labels.size();
  if (n == 0) return t;
  t.cell.assign(n, std::vector<std::string>(n));
  auto pci_of = [&](std::size_t k) { return k < ng ? gpu_pci[k] : nic_pci[k - ng]; };
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j) {
        t.cell[i][j] = "X";
        continue;
      }
      if (use_nvml && i < ng && j < ng) {
        const auto& gi = inv.nvml.gpus[i];
        const auto& gj = inv.nvml.gpus[j];
        int direct = 0, to_switch_i = 0, to_switch_j = 0;
        for (const auto& l : gi.nvlinks)
          if (l.active.value_or(false)) {
            if (l.remote_type.value_or(-1) == 2) ++to_switch_i;
            else if (l.remote_bus_id && gj.bus_id && *l.remote_bus_id == *gj.bus_id) ++direct;
          }
        for (const auto& l : gj.nvlinks)
          if (l.active.value_or(false) && l.remote_type.value_or(-1) == 2) ++to_switch_j;
        // Through NVSwitch every pair talks over all switch links; nvidia-smi prints the count.
        int nv = direct + std::min(to_switch_i, to_switch_j);
        if (nv > 0) {
          t.cell[i][j] = "NV" + std::to_string(nv);
          continue;
        }
        if (i < inv.nvml.topology.size() && j < inv.nvml.topology[i].size() && inv.nvml.topology[i][j]) {
          t.cell[i][j] = level_code(*inv.nvml.topology[i][j]);
          continue;
        }
      }
      auto* a = pci_of(i);
      auto* b = pci_of(j);
      if (a && b)
        if (auto d = pci_distance(*a, *b)) t.cell[i][j] = *d;
    }
  for (std::size_t k = 0; k < n; ++k) {
    std::string cpu, numa;
    if (use_nvml && k < ng) cpu = inv.nvml.gpus[k].cpu_affinity.value_or("");
    if (auto* p = pci_of(k); p && p->numa_node && *p->numa_node >= 0) numa = std::to_string(*p->numa_node);
    t.cpu_affinity.push_back(cpu);
    t.numa.push_back(numa);
  }
  return t;
}

std::vector<std::vector<std::string>> build_p2p_view(const probe::Inventory& inv) {
  static const char* names[] = {"OK", "CNS", "GNS", "TNS", "DIS", "NS", "U"};
  const auto& m = inv.nvml.p2p;
  bool any = false;
  for (const auto& r : m)
    for (const auto& v : r) any |= v.has_value();
  if (!any) return {};
  std::vector<std::vector<std::string>> out(m.size(), std::vector<std::string>(m.size()));
  for (std::size_t i = 0; i < m.size(); ++i)
    for (std::size_t j = 0; j < m[i].size(); ++j)
      out[i][j] = i == j ? "X" : !m[i][j] ? "" : (*m[i][j] >= 0 && *m[i][j] <= 6 ? names[*m[i][j]] : std::to_string(*m[i][j]));
  return out;
}

probe::TopoMatrix to_topo_matrix(const TopoView& view, const probe::Inventory& inv) {
  probe::TopoMatrix m;
  m.source = nvml_ok(inv) ? "nvml" : "sysfs";
  for (std::size_t k = 0; k < view.labels.size(); ++k) {
    std::optional<int> numa;
    if (!view.numa[k].empty()) numa = std::stoi(view.numa[k]);
    if (view.labels[k].starts_with("GPU")) {
      probe::Gpu g;
      g.index = static_cast<int>(m.gpus.size());
      g.bus_id = view.devices[k];
      g.numa_node = numa;
      g.cpu_affinity = view.cpu_affinity[k];
      if (nvml_ok(inv) && k < inv.nvml.gpus.size()) {
        const auto& ng = inv.nvml.gpus[k];
        g.name = ng.name.value_or("");
        if (ng.cc_major && ng.cc_minor) g.sm = *ng.cc_major * 10 + *ng.cc_minor;
      }
      if (const auto* p = find_pci(inv, g.bus_id)) {
        g.pcie_gts = p->cur_speed_gts;
        g.pcie_width = p->cur_width;
      }
      m.gpus.push_back(std::move(g));
    } else {
      probe::Nic n;
      n.label = view.labels[k];
      n.name = view.devices[k];
      n.numa_node = numa;
      for (const auto& d : inv.ib)
        if (d.name == n.name) {
          n.bus_id = d.pci_bdf.value_or("");
          for (const auto& p : d.ports)
            if (p.rate_gbps) n.port_gbps = std::max(n.port_gbps.value_or(0), *p.rate_gbps);
        }
      m.nics.push_back(std::move(n));
    }
  }
  m.reset_links();
  for (std::size_t i = 0; i < view.labels.size(); ++i)
    for (std::size_t j = 0; j < view.labels.size(); ++j)
      if (auto l = probe::parse_link_code(view.cell[i][j])) m.at(i, j) = *l;
  return m;
}

void run_measurements(DoctorRun& run, const DoctorOptions& opt) {
  const auto& inv = run.inventory;
  std::string why = !opt.full ? "measurements run with --full" : !inv.live ? "measurements need the live machine (not a replay)" : "";
  if (!why.empty()) {
    run.measurements.push_back(measure::skipped("gpu.copies", "GPU copy bandwidth and latency matrices", "GB/s", gpu_count(inv) ? why : "no GPUs"));
    run.measurements.push_back(measure::skipped("shm.write", "/dev/shm write throughput", "GB/s", why));
    run.measurements.push_back(measure::skipped("storage.fsync", "storage fsync'd write throughput", "GB/s", why));
    return;
  }
  // Each measurement takes seconds (the storage test writes --io-size and fsyncs): show where
  // doctor is on stderr (TTY only, core/progress.h), as `dcgmi diag -r 3` does.
  core::Progress progress("doctor --full: GPU copies, /dev/shm, storage", 3);
  auto gpu = measure::measure_gpu_copies(&run.matrix);
  progress.update(1);
  for (auto& m : gpu.measurements) run.measurements.push_back(std::move(m));
  run.p2p_gbps = std::move(gpu.p2p_gbps);
  run.p2p_latency_us = std::move(gpu.p2p_latency_us);
  run.measurements.push_back(measure::measure_shm_write(core::FileSystem("/")));
  progress.update(2);
  measure::StorageOptions so;
  so.dir = opt.storage_dir.empty() ? "." : opt.storage_dir;
  so.bytes = opt.io_bytes;
  std::optional<double> write_gbps;
  for (auto& m : measure::measure_storage(so)) {
    if (m.id == "storage.write" && m.value) write_gbps = m.value;
    run.measurements.push_back(std::move(m));
  }
  progress.finish();
  // A slow checkpoint on one rank is a classic cause of collective timeouts on the others: while
  // it writes, they wait in their next collective.
  if (opt.model_params) {
    if (!write_gbps) {
      run.measurements.push_back(measure::skipped("checkpoint.write_time", "checkpoint write time vs collective timeout", "s",
                                                  "no storage write throughput was measured"));
      return;
    }
    measure::CheckpointInput ci;
    ci.params = *opt.model_params;
    ci.write_gbps = *write_gbps;
    ci.timeout_s = opt.timeout_s;
    if (auto e = measure::checkpoint_estimate(ci)) run.measurements.push_back(measure::checkpoint_measurement(ci, *e));
  }
}

DoctorRun run_doctor(probe::Inventory inv, const DoctorOptions& opt) {
  DoctorRun run;
  run.outcomes = run_doctor_checks(inv);
  for (auto& o : expectation_checks(inv, opt.expect)) run.outcomes.push_back(std::move(o));
  run.topo = build_topo_view(inv);
  run.matrix = to_topo_matrix(run.topo, inv);
  run.p2p = build_p2p_view(inv);
  run.inventory = std::move(inv);
  run_measurements(run, opt);
  // A failed measurement counts like a failed check (a WARN like a warning); SKIP counts as nothing.
  core::Outcome worst = core::worst_of(run.outcomes, [](const CheckOutcome& o) { return o.result.status; });
  worst = core::worst(worst, core::worst_of(run.measurements, [](const measure::Measurement& m) { return m.status; }));
  run.exit_code = core::exit_code_for(worst);
  return run;
}

}  // namespace ncdx::analyze
