// libFuzzer target: the RDMA endpoint record a peer sends over the pair's TCP connection
// (measure/network/rdma_wire.h) and the NCCL_IB_* values that choose rails and QP attributes:
// any bytes must decode or be refused with a message, never read out of bounds, and whatever
// decodes must encode back to the same bytes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "measure/network/rdma_rails.h"
#include "measure/network/rdma_wire.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ncdx;
  std::string bytes(reinterpret_cast<const char*>(data), size);
  std::string err;
  if (auto eps = measure::decode_endpoints(bytes, &err)) {
    if (measure::encode_endpoints(*eps) != bytes) std::abort();
    for (const auto& e : *eps) (void)measure::qp_to_rtr(1, 0, e.lid & 1, eps->front(), e, measure::QpParams{});
  } else if (err.empty()) {
    std::abort();  // a refusal always says why
  }
  // The same bytes as NCCL_IB_* values.
  (void)measure::parse_hca_spec(bytes, &err);
  (void)measure::qp_params({{"NCCL_IB_TIMEOUT", bytes}, {"NCCL_IB_TC", bytes}}, &err);
  probe::IbDevice dev;
  dev.name = "mlx5_0";
  probe::IbPort port;
  port.port = 1;
  port.state = "4: ACTIVE";
  port.link_layer = "Ethernet";
  port.gids.push_back({0, bytes, std::string("RoCE v2"), std::nullopt});
  dev.ports.push_back(port);
  (void)measure::choose_rails({dev}, {{"NCCL_IB_HCA", bytes}, {"NCCL_IB_GID_INDEX", bytes}});
  (void)measure::choose_rails({dev}, {{"NCCL_IB_ADDR_RANGE", bytes}});
  (void)measure::choose_rails({dev}, {{"NCCL_IB_ADDR_RANGE", bytes}, {"NCCL_IB_ADDR_FAMILY", "AF_INET6"}});
  return 0;
}
