#pragma once
// One log line with what its prefixes tell: rank, host, pid, device, time, level. Produced by
// parse_prefix() from the many prefix formats of NCCL, PyTorch glog, torchrun, Ray, Slurm, mpirun.
#include <optional>
#include <string>
#include <string_view>

namespace ncdx::analyze {

enum class LineLevel { unknown, info, warn, error, fatal };

struct LinePrefix {
  std::optional<int> rank;          // global rank, when a prefix says so
  std::optional<int> local_rank;    // torchrun [default3] / NCCL's "[3]" is the CUDA device
  std::optional<int> cuda_dev;      // NCCL "[cudaDev]"
  std::optional<int> pid;
  std::optional<int> tid;
  std::optional<std::string> host;
  std::optional<double> epoch;      // seconds since the epoch when the prefix has a full date/time
  std::optional<double> clock;      // seconds since midnight when only a time of day is known
  std::string time_text;            // as printed
  LineLevel level = LineLevel::unknown;
  std::string_view message;         // the line with all recognised prefixes removed (view into the input)
  // Added by the input layer (additive):
  std::string_view source;          // emitter's "file:line" (NCCL WARN, glog, vLLM), view into the input
  bool nccl = false;                // the line carried NCCL's "host:pid:tid [dev] ... NCCL LEVEL" prefix
  // The line from where the program's own text begins (after paste decoration such as "> ",
  // "**", indentation, and collector prefixes such as kubectl/CRI timestamps, docker compose,
  // pdsh, srun labels) to the end of the message without trailing artefacts: what signatures
  // are matched against. View into the input.
  std::string_view text;
};

// What a file's name or path says about its lines (rank3.log, nccl.host1.1234, worker-*.out ...).
struct FileHints {
  std::optional<int> rank;
  std::optional<std::string> host;
  std::optional<int> pid;
  // Added by the input layer (additive):
  std::optional<int> local_rank;    // torchrun --log-dir ".../attempt_0/<local_rank>/stderr.log"
  std::optional<long long> slurm_job;  // slurm-<job>.out
};
FileHints hints_from_path(std::string_view path);
// The path of a header that tail(1) and head(1) print above each file when given several:
// "==> path <==" (GNU coreutils src/tail.c write_header and src/head.c: printf("%s==> %s <==\n"),
// the name quoted by quotef when it holds spaces). `text` is a line with its prefixes removed;
// leading/trailing blanks are ignored. nullopt when the line is no such header.
std::optional<std::string_view> tail_header_path(std::string_view text);

// Parses every recognised prefix, outermost first. Never throws; unknown text is left in message.
LinePrefix parse_prefix(std::string_view line);

}  // namespace ncdx::analyze
