#pragma once
// One doctor run as data: the check outcomes, the topology/P2P matrices derived from the
// inventory, and the measurements, ready for any reporter (text, JSON, HTML, JUnit, Prometheus).
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "analyze/doctor_check.h"
#include "probe/inventory.h"

namespace ncdx::analyze {

// A GPU/NIC matrix like `nvidia-smi topo -m`: cells are X, NV#, PIX, PXB, PHB, NODE, SYS or
// "" (unknown). Our own struct until topo's probe/topo_matrix.h is merged (then adapt).
struct TopoView {
  std::vector<std::string> labels;           // GPU0.., NIC0..
  std::vector<std::string> devices;          // bus ids / RDMA device names, same order
  std::vector<std::vector<std::string>> cell;
  std::vector<std::string> cpu_affinity;     // per label ("" for unknown)
  std::vector<std::string> numa;             // per label
  std::vector<std::string> legend_nics;      // "NIC0: mlx5_0"
};

struct Measurement {
  std::string id, title, status;  // status PASS/WARN/FAIL/SKIP
  std::string unit;
  std::optional<double> value;
  std::vector<std::vector<std::optional<double>>> matrix;  // GPU x GPU when applicable
  std::string detail;
};

struct DoctorRun {
  probe::Inventory inventory;
  std::vector<CheckOutcome> outcomes;
  TopoView topo;
  std::vector<std::vector<std::string>> p2p;  // P2P read status codes as text
  std::vector<Measurement> measurements;
  int exit_code = 0;
};

TopoView build_topo_view(const probe::Inventory& inv);
std::vector<std::vector<std::string>> build_p2p_view(const probe::Inventory& inv);
// --full measurements; SKIP entries with the reason when not available.
std::vector<Measurement> doctor_measurements(const probe::Inventory& inv, bool full);
DoctorRun run_doctor(probe::Inventory inv, bool full);

}  // namespace ncdx::analyze
