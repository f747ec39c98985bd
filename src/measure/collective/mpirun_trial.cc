#include "measure/collective/mpirun_trial.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstring>
#include <set>

#include "core/json.h"

namespace ncdx::measure {

namespace {

using core::Status;

std::string self_exe() {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : "ncdx";
}

// Runs argv with stdout captured (stderr passed through) and `env` applied, killing it after timeout_s.
core::Result<std::string> run_capture(const std::vector<std::string>& argv, const TrialEnv& env, int timeout_s, int& status_out) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return Status::internal(std::string("pipe: ") + std::strerror(errno));
  pid_t pid = fork();
  if (pid < 0) return Status::internal(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    dup2(fds[1], 1);
    setpgid(0, 0);  // its own process group, so a timeout kills mpirun and its ranks
    for (const auto& k : env.unset) unsetenv(k.c_str());
    for (const auto& [k, v] : env.set) setenv(k.c_str(), v.c_str(), 1);
    std::vector<char*> av;
    for (const auto& a : argv) av.push_back(const_cast<char*>(a.c_str()));
    av.push_back(nullptr);
    execvp(av[0], av.data());
    _exit(127);
  }
  close(fds[1]);
  std::string out;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  bool timed_out = false;
  char buf[65536];
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) {
      timed_out = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    int r = poll(&p, 1, static_cast<int>(left));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) continue;
    ssize_t n = read(fds[0], buf, sizeof buf);
    if (n <= 0) break;
    out.append(buf, static_cast<std::size_t>(n));
    if (out.size() > (64u << 20)) {
      timed_out = true;  // unbounded output: treat as a broken trial
      break;
    }
  }
  close(fds[0]);
  if (timed_out) kill(-pid, SIGKILL);
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  status_out = st;
  if (timed_out) return Status(core::Exit::failures, argv[0] + " did not finish within " + std::to_string(timeout_s) + " s");
  return out;
}

}  // namespace

std::vector<std::string> trial_argv(const MpirunSpec& spec, Collective c, const Mca& mca, const TrialEnv& env,
                                    const std::vector<std::size_t>& sizes) {
  std::vector<std::string> a;
  if (spec.np > 0) {
    a = {spec.mpirun, "-np", std::to_string(spec.np)};
    for (const auto& x : spec.args) a.push_back(x);
    for (const auto& [k, v] : mca) {
      a.push_back("--mca");
      a.push_back(k);
      a.push_back(v);
    }
    for (const auto& kv : env.set) {
      a.push_back("-x");
      a.push_back(kv.first);
    }
  }
  std::string list;
  for (std::size_t s : sizes) list += (list.empty() ? "" : ",") + std::to_string(s);
  std::vector<std::string> bench{spec.ncdx.empty() ? self_exe() : spec.ncdx, "bench", std::string(name_of(c)), "--backend", spec.backend,
                                 "--sizes", list, "-n", std::to_string(spec.iters), "-w", std::to_string(spec.warmup),
                                 "-c", "0", "--json", "--no-timestamps"};
  if (spec.gpus > 0) {
    bench.push_back("-g");
    bench.push_back(std::to_string(spec.gpus));
  }
  a.insert(a.end(), bench.begin(), bench.end());
  return a;
}

std::vector<std::string> mpirun_argv(const MpirunSpec& spec, Collective c, const Mca& mca, const std::vector<std::size_t>& sizes) {
  return trial_argv(spec, c, mca, {}, sizes);
}

core::Result<TrialResult> trial_from_json(std::string_view text, std::string_view source) {
  auto rows = trial_rows_from_json(text, source);
  if (!rows) return rows.status();
  TrialResult t;
  t.rows = *rows;
  auto j = core::parse_json(text, source);  // parsed again: the rows' reader is the one callers share
  t.library = j->value("library", "");
  t.nranks = j->value("nranks", 0);
  std::set<std::string> hosts;
  if (j->contains("ranks") && (*j)["ranks"].is_array())
    for (const auto& r : (*j)["ranks"])
      if (r.is_object() && r.contains("host") && r["host"].is_string()) hosts.insert(r["host"].get<std::string>());
  t.nodes = static_cast<int>(hosts.size());
  return t;
}

core::Result<std::vector<TrialRow>> trial_rows_from_json(std::string_view text, std::string_view source) {
  auto j = core::parse_json(text, source);
  if (!j) return j.status();
  const auto& d = *j;
  if (!d.is_object() || d.value("schema", "") != "ncdx.bench/1" || !d.contains("results") || !d["results"].is_array())
    return Status::bad_input(std::string(source) + ": not an ncdx.bench/1 document");
  std::vector<TrialRow> rows;
  for (const auto& r : d["results"]) {
    try {
      TrialRow t;
      t.bytes = r.at("bytes").get<std::size_t>();
      const auto& o = r.at("out_of_place");
      t.time_us = o.at("time_us").get<double>();
      t.p50_us = o.at("iter").at("p50_us").get<double>();
      t.stdev_us = o.at("iter").at("stdev_us").get<double>();
      t.n = o.at("iter").at("n").get<int>();
      rows.push_back(t);
    } catch (const std::exception&) {
      return Status::bad_input(std::string(source) + ": result row without bytes/out_of_place.time_us/iter");
    }
  }
  return rows;
}

std::optional<std::string> open_mpi_version_of(std::string_view text) {
  // "mpirun (Open MPI) 4.1.4" (orterun's --version, v4.1.x) / "mpirun (Open MPI) 5.0.9" (prte, v5)
  const std::string_view key = "(Open MPI) ";
  auto at = text.find(key);
  if (at == std::string_view::npos) return std::nullopt;
  auto v = text.substr(at + key.size());
  v = v.substr(0, v.find_first_of(" \t\r\n"));
  if (v.empty() || !std::isdigit(static_cast<unsigned char>(v.front()))) return std::nullopt;
  return std::string(v);
}

std::optional<std::string> open_mpi_version(const MpirunSpec& spec) {
  int st = 0;
  auto out = run_capture({spec.mpirun, "--version"}, {}, 30, st);
  if (!out || !WIFEXITED(st) || WEXITSTATUS(st) != 0) return std::nullopt;
  return open_mpi_version_of(*out);
}

core::Result<TrialResult> run_trial(const MpirunSpec& spec, Collective c, const Mca& mca, const TrialEnv& env,
                                    const std::vector<std::size_t>& sizes) {
  auto argv = trial_argv(spec, c, mca, env, sizes);
  int st = 0;
  auto out = run_capture(argv, env, spec.timeout_s, st);
  if (!out) return out.status();
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    std::string cmd;
    for (const auto& [k, v] : env.set) cmd += k + "=" + v + " ";
    for (const auto& x : argv) cmd += (cmd.empty() || cmd.back() == ' ' ? "" : " ") + x;
    return Status(core::Exit::failures, "trial failed (exit " + std::to_string(WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st)) +
                                           "): " + cmd);
  }
  return trial_from_json(*out, spec.np > 0 ? "mpirun trial output" : "bench trial output");
}

core::Result<std::vector<TrialRow>> run_mpirun_trial(const MpirunSpec& spec, Collective c, const Mca& mca,
                                                     const std::vector<std::size_t>& sizes) {
  auto t = run_trial(spec, c, mca, {}, sizes);
  if (!t) return t.status();
  return t->rows;
}

}  // namespace ncdx::measure
