exit 0
# ncdx env recommend: 4 node(s) x 8 GPUs = 32 (tier 31+ GPUs), fabric ib; from ../topo/snapshot-h100-12nic.json: 8 GPUs, intra-node nvswitch; NCCL 2.27.5
# print NCCL's WARN lines (the text PyTorch shows after 'Last error') without INFO volume [NVIDIA/nccl src/debug.cc (WARN lines, ncclGetLastError)]
export NCCL_DEBUG=WARN
# keep a Flight Recorder ring buffer for hang forensics (older PyTorch defaults to 0 = off) [pytorch/pytorch torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp, FlightRecorder.hpp]
export TORCH_NCCL_TRACE_BUFFER_SIZE=2000
# write one Flight Recorder dump per rank when the watchdog fires [pytorch/pytorch torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp/.cpp]
export TORCH_NCCL_DUMP_ON_TIMEOUT=1
# note: leave NCCL_NVLS_ENABLE (auto since 2.18.1) and NCCL_CUMEM_ENABLE at their defaults: NVLS needs cuMem [NVIDIA/nccl src/transport/nvls.cc (default 2 since v2.18.1-1)]
# note: if some HCAs are not on the compute fabric, list the good ones: NCCL_IB_HCA=mlx5_0,mlx5_1,... [nccl_env_vars.tsv NCCL_IB_HCA]
# note: on a hang, query the job with ncclras (NCCL_RAS_ENABLE is on by default from 2.24.3) [nccl_env_vars.tsv NCCL_RAS_ENABLE]
