#pragma once
// The host a pasted shell command's output comes from. Reports paste command lines with their
// output ("$ ssh node02 'dmesg -T | tail'", "$ kubectl exec worker-1 -- nvidia-smi", "$ srun -w
// gpu-b2 df -h /dev/shm"): the lines below such a command, up to the next one, were printed on the
// host it names, although they carry no prefix of their own.
#include <optional>
#include <string>
#include <string_view>

namespace ncdx::analyze::triage {

struct ShellHost {
  std::string host;    // empty: the command names no single host (a local command, a launcher)
  bool whole = false;  // every line below is that host's (`kubectl logs POD`: one pod's whole log);
                       // otherwise only lines without a prefix of their own (a command's output)
};

// nullopt: `text` is no "$ " command line. Otherwise the host the command runs on; an empty host
// ends the context of the command before.
std::optional<ShellHost> shell_command_host(std::string_view text);

}  // namespace ncdx::analyze::triage
