exit 0
# ncdx env debug (NCCL 2.27.5, PyTorch 2.8.0): for a debugging run, not production
# init, topology, transport and ENV lines from every rank [NVIDIA/nccl src/debug.cc]
export NCCL_DEBUG=INFO
# subsystems to log; add GRAPH,TUNING to see ring/tree choices [nccl_env_vars.tsv NCCL_DEBUG_SUBSYS]
export NCCL_DEBUG_SUBSYS=INIT,BOOTSTRAP,ENV,NET
# one file per process (%h host, %p pid) [nccl_env_vars.tsv NCCL_DEBUG_FILE]
export NCCL_DEBUG_FILE=/tmp/nccl.%h.%p.log
# timestamp INFO lines too (default: WARN only) [NVIDIA/nccl src/debug.cc (2.26+)]
export NCCL_DEBUG_TIMESTAMP_LEVELS=WARN,INFO
# collective checks, desync debug and dump-on-timeout [pytorch/pytorch torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp/.cpp]
export TORCH_DISTRIBUTED_DEBUG=DETAIL
# Flight Recorder ring buffer (0 = off in older PyTorch) [pytorch/pytorch torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp, FlightRecorder.hpp]
export TORCH_NCCL_TRACE_BUFFER_SIZE=2000
# dump the buffer on a watchdog timeout [pytorch/pytorch torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp/.cpp]
export TORCH_NCCL_DUMP_ON_TIMEOUT=1
# dump prefix; each rank writes <prefix><rank> (TORCH_FR_DUMP_TEMP_FILE in current PyTorch reads the same) [pytorch/pytorch torch/csrc/distributed/c10d/FlightRecorder.hpp]
export TORCH_NCCL_DEBUG_INFO_TEMP_FILE=/tmp/nccl_trace_rank_
# per-collective durations (duration_ms) in the dump [pytorch/pytorch torch/csrc/distributed/c10d/FlightRecorder.hpp]
export TORCH_NCCL_ENABLE_TIMING=1
