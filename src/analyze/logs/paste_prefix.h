#pragma once
// The layers parse_prefix() peels that no program meant to print: markdown around a pasted line,
// and the prefixes of the collectors a log passed through on its way to the issue (kubectl logs
// --timestamps, containerd CRI files, docker compose, pdsh/DeepSpeed multi-node, W&B). Each
// looks at a few bytes and gives up early; none allocates.
#include <optional>
#include <string_view>

#include "analyze/logs/text_scan.h"

namespace ncdx::analyze::paste {

// Markdown and terminal decoration at the cursor: indentation, "> " quotes, "- "/"* "/"• "
// bullets, "**" bold, inline backticks, a code-fence line ("```text", "~~~"), a colour code whose
// ESC was lost ("[36m", "[0m"). Advances past one of them and returns true.
bool skip_decoration(scan::Cursor& c);

// journald/syslog "Mar 03 10:00:00 host kernel: " / "Mar  3 10:00:00 host tag[pid]: ".
struct Syslog {
  std::string_view host, time_text;
  double clock = 0;
  std::optional<int> pid;
};
bool syslog(scan::Cursor& c, Syslog& out);

// containerd/CRI-O log files put "stdout F " / "stderr P " after their timestamp.
bool skip_cri_stream(scan::Cursor& c);

// docker compose "worker-1  | " (service name, padding, bar): the name.
bool compose_service(scan::Cursor& c, std::string_view& name);

// pdsh / DeepSpeed multi-node "worker-1: ", "10.0.0.2: ", "localhost: " (nccl-tests prints its
// own "gpu-7: "): the host. A word without a digit, an exception name or a numbered device label
// ("RuntimeError: ", "nvidia-container-cli: ", "GPU0: ", "mlx5: ") is not a host.
bool pdsh_host(scan::Cursor& c, std::string_view& host);

// kubectl logs --prefix "[pod/trainer-worker-0/pytorch] ": the pod (a host of its own).
bool kubectl_pod(scan::Cursor& c, std::string_view& pod);

// SageMaker's mpirun tag "[1,mpirank:3,algo-2]<stderr>:": the rank and the host.
bool sagemaker_mpi(scan::Cursor& c, int& rank, std::string_view& host);

// The message without what a paste leaves at its end: trailing blanks, "**", backticks, Ray's
// " [repeated 7x across cluster]".
std::string_view trim_end(std::string_view m);

}  // namespace ncdx::analyze::paste
