#include "cluster/rank_env.h"

#include <cstdlib>
#include <unistd.h>

#include "core/strings.h"

namespace ncdx::cluster {
namespace {
std::optional<std::string> get(const std::map<std::string, std::string>* env, const char* name) {
  if (env) {
    if (auto it = env->find(name); it != env->end()) return it->second;
  } else if (const char* p = std::getenv(name)) {
    return p;
  }
  return std::nullopt;
}

std::optional<int> get_int(const std::map<std::string, std::string>* env, const char* name) {
  auto v = get(env, name);
  if (!v) return std::nullopt;
  auto n = core::parse_int(*v);
  if (!n || *n < 0 || *n > 1'000'000) return std::nullopt;
  return static_cast<int>(*n);
}
}  // namespace

RankInfo detect_rank(const std::map<std::string, std::string>* env) {
  struct Source {
    const char *name, *rank, *size, *local;
  };
  static const Source sources[] = {
      {"openmpi", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK"},
      {"pmix", "PMIX_RANK", "PMI_SIZE", "MPI_LOCALRANKID"},
      {"slurm", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID"},
      {"torchrun", "RANK", "WORLD_SIZE", "LOCAL_RANK"},
  };
  RankInfo info;
  char host[256] = {0};
  if (gethostname(host, sizeof host - 1) == 0) info.host = host;
  for (const auto& s : sources) {
    auto r = get_int(env, s.rank), n = get_int(env, s.size);
    if (r && n && *r < *n) {
      info.rank = *r;
      info.size = *n;
      info.local_rank = get_int(env, s.local);
      info.source = s.name;
      break;
    }
  }
  return info;
}

std::string slurm_node_name(const std::map<std::string, std::string>* env) {
  return get(env, "SLURMD_NODENAME").value_or("");
}

std::string slurm_step(const std::map<std::string, std::string>* env) {
  auto job = get_int(env, "SLURM_JOB_ID"), step = get_int(env, "SLURM_STEP_ID");
  if (!job || !step) return {};
  return std::to_string(*job) + "." + std::to_string(*step);
}

}  // namespace ncdx::cluster
