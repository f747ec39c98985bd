# Cluster mode (issue #14). Flag checks and --plan run everywhere; `--cluster` without MPI must
# exit 64; the namespace cases run real mpirun across network-namespace hosts
# (scripts/netns-cluster.sh, root) or real srun on a Slurm cluster of such hosts
# (scripts/slurm-cluster.sh) and report SKIP (exit 77) with the reason where they cannot.
get_property(_mpi GLOBAL PROPERTY NCDX_MPI_BUILT)
# Exit code, schema and the one-line reason (no goldens: the plan's numbers are model output).
ncdx_golden(cluster plan-8 0 JSON SCHEMA ${CMAKE_SOURCE_DIR}/docs/schema/cluster-plan.schema.json
            ARGS doctor --plan 8 --json --no-timestamps)
ncdx_golden(cluster plan-1024 0 JSON SCHEMA ${CMAKE_SOURCE_DIR}/docs/schema/cluster-plan.schema.json
            ARGS doctor --plan 1024 --json)
ncdx_golden(cluster plan-too-small 64 STDERR_MATCH "--plan N: N must be in" ARGS doctor --plan 1)
ncdx_golden(cluster bad-bw-bytes 64 STDERR_MATCH "--bw-bytes '12X'" ARGS doctor --cluster --bw-bytes 12X)
ncdx_golden(cluster bad-pair-budget 64 STDERR_MATCH "--pair-budget must be" ARGS doctor --cluster --pair-budget 0)
if(NOT _mpi)
  ncdx_golden(cluster without-mpi 64 STDERR_MATCH "built without" ARGS doctor --cluster)
else()
  # Multi-rank on one host: 3 ranks are one node, so the matrix is skipped with the reason.
  find_program(_mpirun mpirun)
  if(_mpirun)
    add_test(NAME cluster.mpirun-one-host
             COMMAND ${_mpirun} --oversubscribe -np 3 $<TARGET_FILE:ncdx> doctor --cluster --quick --json --no-timestamps)
    set_tests_properties(cluster.mpirun-one-host PROPERTIES LABELS "cluster"
      ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_btl=self,tcp"
      PASS_REGULAR_EXPRESSION "\"network_skipped\": \"fewer than two nodes \\(hosts: 1\\)\"")
  endif()
  # --nccl through the stand-in libcudart/libnccl (tests/measure/fake): under mpirun -np 2, as two
  # nodes of one rank with two GPUs each, in one process, without a loadable libnccl and without a device (tests/cluster/nccl_case.py).
  find_package(Python3 COMPONENTS Interpreter QUIET)
  if(_mpirun AND Python3_FOUND)
    foreach(case mpirun2 twonodes single nolib nodevice)
      add_test(NAME cluster.nccl-fake-${case}
               COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/nccl_case.py $<TARGET_FILE:ncdx> ${CMAKE_SOURCE_DIR}
                       ${case} $<TARGET_FILE:ncdx_fake_cudart> $<TARGET_FILE:ncdx_fake_nccl> ${_mpirun})
      set_tests_properties(cluster.nccl-fake-${case} PROPERTIES LABELS "cluster;mpi;fake" TIMEOUT 240)
    endforeach()
  endif()
  find_package(Python3 COMPONENTS Interpreter QUIET)
  # name | hosts | expected | faults
  foreach(case "healthy4|4|healthy|"
               "slowlink4|4|net:slow-link:h2.c,h4.c|slowlink:2:4:30"
               "drift4|4|drift:env.NCCL_IB_HCA:h3.c|envdrift:3:NCCL_IB_HCA=mlx5_9"
               # 4 ms more per round trip on one link (nfqueue delayer, no netem here): that link.
               "delaylink4|4|net:slow-link:h2.c,h3.c|delaylink:2:3:4"
               # h3's data link goes down during its first matrix pair: every pair of h3 fails.
               "linkdown4|4|net:unreachable:h3.c|linkdown:3"
               # No RDMA device on these hosts: --transport auto measures over TCP and says why.
               "autotcp4|4|healthy+transport:tcp|ncdx:--transport=auto")
    string(REPLACE "|" ";" parts "${case}")
    list(GET parts 0 name)
    list(GET parts 1 n)
    list(GET parts 2 expect)
    list(GET parts 3 faults)
    add_test(NAME cluster.netns.${name}
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/netns_case.py $<TARGET_FILE:ncdx> ${CMAKE_SOURCE_DIR}
                     ${n} ${expect} ${faults})
    set_tests_properties(cluster.netns.${name} PROPERTIES LABELS "cluster;netns" SKIP_RETURN_CODE 77 TIMEOUT 300
                         RESOURCE_LOCK netns-cluster)
  endforeach()
  # A real two-node Slurm cluster of namespace hosts (scripts/slurm-cluster.sh: munged, slurmctld,
  # one slurmd per host): `srun --mpi=pmix ncdx doctor --cluster` with one and with two ranks per
  # node (ranks 0,1 on n1 and 2,3 on n2 are two nodes). SKIP (77) with the reason without Slurm.
  # dup: both nodes carry one hostname (cloned machines); Slurm's node names keep them apart.
  foreach(case "1pn|1" "2pn|2" "duphost|1|dup")
    string(REPLACE "|" ";" parts "${case}")
    list(GET parts 0 name)
    list(REMOVE_AT parts 0)
    add_test(NAME cluster.slurm.srun-pmix-${name}
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/slurm_case.py $<TARGET_FILE:ncdx> ${CMAKE_SOURCE_DIR}
                     ${parts})
    set_tests_properties(cluster.slurm.srun-pmix-${name} PROPERTIES LABELS "cluster;netns;slurm"
                         SKIP_RETURN_CODE 77 TIMEOUT 300 RESOURCE_LOCK netns-cluster)
  endforeach()
endif()
