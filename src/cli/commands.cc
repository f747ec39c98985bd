#include "cli/command.h"

namespace ncdx::cli {

// One line per command; keep alphabetical. The summary is the command's only description: main.cc
// gives it to the subcommand (`ncdx --help`, `ncdx CMD --help`).
CLI::App* add_audit(CLI::App&, const GlobalOptions&, int&);
CLI::App* add_bench(CLI::App&, const GlobalOptions&, int&);
CLI::App* add_compat(CLI::App&, const GlobalOptions&, int&);
CLI::App* add_completion(CLI::App&, const GlobalOptions&, int&);
CLI::App* add_docs(CLI::App&, const GlobalOptions&, int&);
CLI::App* add_doctor(CLI::App&, const GlobalOptions&, int&);
CLI::App* add_env(CLI::App&, const GlobalOptions&, int&);
CLI::App* add_gather(CLI::App&, const GlobalOptions&, int&);
CLI::App* add_help(CLI::App&, const GlobalOptions&, int&);
CLI::App* add_model(CLI::App&, const GlobalOptions&, int&);
CLI::App* add_report(CLI::App&, const GlobalOptions&, int&);
CLI::App* add_template(CLI::App&, const GlobalOptions&, int&);
CLI::App* add_timeline(CLI::App&, const GlobalOptions&, int&);
CLI::App* add_topo(CLI::App&, const GlobalOptions&, int&);
CLI::App* add_triage(CLI::App&, const GlobalOptions&, int&);
CLI::App* add_tune(CLI::App&, const GlobalOptions&, int&);

std::span<const CommandDef> commands() {
  static const CommandDef list[] = {
      {"audit", "audit a verl config/script + env against verl, NCCL and PyTorch facts",
       "ncdx audit run_qwen2_7b_grpo.sh                    # a verl run script: its overrides, env and launcher\nncdx audit --config my_ppo.yaml --verl-version 0.5.0\nncdx audit --script run.sh --from node.json --json  # with the node's GPUs and fabric from doctor",
       add_audit},
      {"bench", "nccl-tests-compatible collective benchmark: MPI (CPU) or NCCL (GPU) backend",
       "mpirun -np 4 ncdx bench allreduce --backend mpi -b 8 -e 128M -f 2\nncdx bench allgather --backend nccl -b 1M -e 1G -f 2 -J bench.json",
       add_bench},
      {"compat", "check driver / CUDA / NCCL / PyTorch / verl / vLLM / SGLang versions against each other",
       "ncdx compat                                          # what is installed here\nncdx compat --driver 535.104.05 --cuda 12.4 --nccl 2.21.5 --torch 2.5.1",
       add_compat},
      {"completion", "print a bash or zsh completion script for ncdx",
       "source <(ncdx completion bash)                       # this shell\nncdx completion bash > /etc/bash_completion.d/ncdx\nsource <(ncdx completion zsh)                        # in ~/.zshrc, after compinit",
       add_completion},
      {"docs", "list or print the knowledge files compiled into ncdx",
       "ncdx docs                                            # the knowledge files compiled in\nncdx docs signatures                                 # every failure signature as a table\nncdx docs nccl.result.system-error                   # one id that triage, doctor or audit printed",
       add_docs},
      {"doctor", "preflight this node: GPUs, NVLink, PCIe, network, IB, OS limits, NCCL libraries",
       "ncdx doctor                                          # preflight this node\nncdx doctor -r 3 --expect-gpus 8 -o preflight/      # a gate: JUnit, metrics.prom in preflight/\nncdx doctor --save node.json; ncdx doctor --from node.json",
       add_doctor, true},
      {"env", "lint an NCCL/PyTorch environment, or emit debug / recommended env blocks",
       "ncdx env lint                                        # the current environment\nncdx env lint job.env --nccl-version 2.21.5\nncdx env recommend --nodes 16 --fabric ib --format dotenv",
       add_env},
      {"gather", "collect a support bundle that `ncdx doctor --from` replays",
       "ncdx gather -o bundle/                               # then: ncdx doctor --from bundle/",
       add_gather, true},
      {"help", "print the help of ncdx or of a command; --man: the man page",
       "ncdx help triage\nncdx help env lint\nncdx help --man | man -l -",
       add_help},
      {"model", "predict NCCL's algorithm/protocol and collective time; what-if; judge nccl-tests results",
       "ncdx model --spec nodes=4,gpus=8,gpu=H100,nvlink=NV18,nic=8x400G-IB\nncdx model --spec nodes=2,gpus=8,gpu=A100 --judge all_reduce_perf.txt",
       add_model},
      {"report", "render saved ncdx JSON results as one text report or one self-contained HTML",
       "ncdx doctor --json > node.json; ncdx triage logs/ --json > triage.json\nncdx report node.json triage.json -o report/",
       add_report, true},
      {"template", "print a verl run script (env + overrides) for a model size and cluster",
       "ncdx template --model-size 7B --nodes 2 > run.sh",
       add_template},
      {"timeline", "communication heatmap, stragglers, fail-slow and bottleneck windows from traces",
       "ncdx timeline traces/                                # torch.profiler traces, one per rank\nncdx timeline train_rank*.log --html timeline.html   # step-time logs",
       add_timeline, true},
      {"topo", "show GPU/NIC/CPU topology; pick the best GPU subset and CPU/NIC binding",
       "ncdx topo                                            # this node\nncdx topo topo.txt --pick 4                          # `nvidia-smi topo -m` output\nncdx topo nccl_topo.xml --json                       # NCCL_TOPO_DUMP_FILE output",
       add_topo},
      {"triage", "name the failure of a job: class, culprit rank/host, root cause, fix",
       "ncdx triage job_logs/                                # every rank's log under a directory\nncdx triage rank*.log.gz --fr /tmp/nccl_trace_rank_\nkubectl logs -l job=train | ncdx triage -\nncdx triage --example pytorch-81628",
       add_triage, true},
      {"tune", "measure collective algorithms per size; emit Open MPI rules or NCCL tuner tables",
       "ncdx tune --backend mpi --np 8 --mpirun-args \"--hostfile hosts\"\nncdx tune --backend nccl --collectives allreduce,allgather -b 64K -e 1G  # every local GPU\nncdx tune --model --spec nodes=2,gpus=8,gpu=H100,nic=8x400G-IB   # predicted NCCL tuner table, no GPU",
       add_tune},
  };
  return list;
}

}  // namespace ncdx::cli
