#include "cluster/rank_env.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

using namespace ncdx::cluster;

// What a task of `srun --mpi=pmix -N2 -n2` sees (recorded from Slurm 22.05 on the namespace
// cluster of scripts/slurm-cluster.sh): PMIX_RANK without PMI_SIZE, so the ranks come from SLURM_*.
TEST(RankEnv, SrunWithPmixReadsSlurm) {
  std::map<std::string, std::string> env{{"PMIX_RANK", "1"},     {"PMIX_NAMESPACE", "slurm.pmix.1.0"},
                                         {"SLURM_PROCID", "1"},  {"SLURM_NTASKS", "2"},
                                         {"SLURM_LOCALID", "0"}, {"SLURM_JOB_ID", "1"},
                                         {"SLURM_STEP_ID", "0"}, {"SLURMD_NODENAME", "n2"}};
  auto r = detect_rank(&env);
  EXPECT_EQ(r.source, "slurm");
  EXPECT_EQ(r.rank, 1);
  EXPECT_EQ(r.size, 2);
  EXPECT_EQ(r.local_rank, 0);
  EXPECT_EQ(slurm_step(&env), "1.0");
}

// mpirun inside an allocation: Open MPI's own variables win; the step is still reported.
TEST(RankEnv, MpirunInsideSlurmJob) {
  std::map<std::string, std::string> env{{"OMPI_COMM_WORLD_RANK", "3"}, {"OMPI_COMM_WORLD_SIZE", "4"},
                                         {"SLURM_PROCID", "0"},         {"SLURM_NTASKS", "1"},
                                         {"SLURM_JOB_ID", "77"},        {"SLURM_STEP_ID", "2"}};
  auto r = detect_rank(&env);
  EXPECT_EQ(r.source, "openmpi");
  EXPECT_EQ(r.rank, 3);
  EXPECT_EQ(slurm_step(&env), "77.2");
}

TEST(RankEnv, NoLauncherIsSingle) {
  std::map<std::string, std::string> env;
  auto r = detect_rank(&env);
  EXPECT_EQ(r.source, "single");
  EXPECT_EQ(r.size, 1);
  EXPECT_EQ(slurm_step(&env), "");
  // A job id alone (an sbatch script outside srun) is no step; nor is a rank beyond the size.
  env = {{"SLURM_JOB_ID", "5"}, {"SLURM_PROCID", "4"}, {"SLURM_NTASKS", "2"}};
  EXPECT_EQ(slurm_step(&env), "");
  EXPECT_EQ(detect_rank(&env).source, "single");
}
