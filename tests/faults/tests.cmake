# The fast subset of the injected-fault bench (bench/faults/faults.py): 30 real PyTorch jobs (gloo,
# CPU; torchrun console/--tee/--log-dir and mpirun), two at a time, 6 s process-group timeouts,
# each with one fault on a seeded rank, scored against the ground truth each run wrote before
# triage ran. Needs the venv of scripts/torch-venv.sh: without torch the test is skipped (exit 77,
# "SKIP: no PyTorch venv" in its output). The floors are below the measured accuracy so that
# timing noise of a loaded machine does not flip it; the ≥ 300-run sweep is the benchmark
# (docs/TRIAGE.md §6). Labelled torch like the other suites that run real PyTorch jobs: a run
# without torch, or one that leaves them out (-LE torch), skips it.
find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND)
  add_test(NAME faults.subset
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/bench/faults/faults.py run
                   --out ${CMAKE_BINARY_DIR}/faults-subset --runs 30 --quick --jobs 2 --seed 7
                   --ncdx $<TARGET_FILE:ncdx> --min-class 0.85 --min-culprit 0.85)
  set_tests_properties(faults.subset PROPERTIES LABELS "faults;torch" SKIP_RETURN_CODE 77 TIMEOUT 900 RUN_SERIAL TRUE)
endif()

# The same bench across network-namespace hosts (scripts/netns-hosts.sh, root): 6 jobs, each of
# sigkill, exception and link_drop (nftables drops the victim host's data0) under mpirun-netns
# (--tag-output, ranks dealt over 2-4 hosts) and torchrun-netns (one torchrun per host), scored on
# class, culprit rank and culprit host (the victim host, by name or address). Decidable: class 6/6,
# culprit 4/6 (a dropped link leaves only timeouts on every rank), host 3/6 (also mpirun's exit
# block names no host for an exit status). The floors sit under that, so a machine's timing noise
# does not flip them but losing host attribution does. Without root (namespaces), nftables or the
# torch venv the test is skipped with the reason (exit 77).
if(Python3_FOUND)
  add_test(NAME faults.netns.subset
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/bench/faults/faults.py run
                   --out ${CMAKE_BINARY_DIR}/faults-netns-subset --runs 6 --quick --jobs 2 --seed 11
                   --launchers mpirun-netns,torchrun-netns --faults sigkill,exception,link_drop
                   --ncdx $<TARGET_FILE:ncdx> --min-class 0.8 --min-culprit 0.5 --min-host 0.3)
  set_tests_properties(faults.netns.subset PROPERTIES LABELS "faults;torch;netns" SKIP_RETURN_CODE 77 TIMEOUT 300
                       RUN_SERIAL TRUE)
endif()

# srun as the launcher (issue #10): 14 real jobs, one per fault, plain srun and
# --kill-on-bad-exit -l in turn, on the two-node Slurm namespace cluster that faults.py brings up
# around itself (scripts/slurm-cluster.sh; root, Slurm, munge). SKIP (77) with the reason without
# torch or Slurm. Floors below the measured 2026-12-05 sweep (docs/TRIAGE.md §6).
if(Python3_FOUND)
  add_test(NAME faults.srun-subset
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/bench/faults/faults.py run
                   --out ${CMAKE_BINARY_DIR}/faults-srun-subset --runs 14 --quick --jobs 2 --seed 11 --max-world 4
                   --launchers srun,srun-k --ncdx $<TARGET_FILE:ncdx> --min-class 0.85 --min-culprit 0.6)
  set_tests_properties(faults.srun-subset PROPERTIES LABELS "faults;torch;slurm;netns" SKIP_RETURN_CODE 77
                       TIMEOUT 900 RUN_SERIAL TRUE)
endif()
