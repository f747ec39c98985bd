#pragma once
// TopoMatrix <-> JSON. This is the "topology" object of `ncdx topo --json` and the object doctor
// embeds under "topology" in its snapshot, so `ncdx topo --from snapshot.json` reads either.
// Shape (docs/schema/topo.schema.json, "topology"):
//   {"source": "nvidia-smi", "devices": ["GPU0", ..., "NIC0"],
//    "gpus": [{"index", "name", "bus_id", "numa_node", "cpu_affinity", "sm", "pcie_gts", "pcie_width"}],
//    "nics": [{"label", "name", "bus_id", "port_gbps", "numa_node"}],
//    "matrix": [["X", "NV12", null, ...], ...],   // nvidia-smi codes, null = unknown
//    "notes": ["..."]}
// Unknown values are null, never 0 or "".
// topo_from_json also reads the shape doctor's snapshot writes today (analyze/doctor/run.h
// TopoView): {"labels": ["GPU0", "NIC0"], "devices": [bus id | NIC name], "cells": [[code|""]],
// "cpu_affinity": [...], "numa": [...]}, "" meaning unknown.
#include <nlohmann/json.hpp>

#include <string_view>

#include "core/result.h"
#include "probe/topo_matrix.h"

namespace ncdx::probe {

nlohmann::json to_json(const TopoMatrix& m);
// Reads the object above; bad shapes are bad_input naming the JSON path.
core::Result<TopoMatrix> topo_from_json(const nlohmann::json& j, std::string_view source_name);

}  // namespace ncdx::probe
