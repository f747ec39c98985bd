# Golden tests of `ncdx model` (docs/MODEL.md): predictions, --explain, --what-if, --judge of real
# nccl-tests outputs (tests/data/model/judge/, copied from ../shared/data), JSON against the schema.
set(model_data ${CMAKE_CURRENT_LIST_DIR}/../data/model)
set(model_golden ${CMAKE_CURRENT_LIST_DIR}/golden)
set(model_schema ${CMAKE_SOURCE_DIR}/docs/schema/model.schema.json)

function(ncdx_model_golden name expect)
  ncdx_golden(model ${name} ${expect} WORKDIR ${model_data} GOLDEN_DIR ${model_golden} SCHEMA ${model_schema} ${ARGN})
endfunction()

set(h100x2 "nodes=2,gpus=8,gpu=H100,nvlink=NV18,nic=8x400G-IB")
ncdx_model_golden(h100-2node-table 0 ARGS model --spec ${h100x2} --nccl 2.27.7)
ncdx_model_golden(h100-1node-2.18 0 ARGS model --spec nodes=1,gpus=8,gpu=H100 --nccl 2.18.6 --coll allreduce,allgather)
ncdx_model_golden(a100-4node-2.30-explain 0 ARGS model --spec nodes=4,gpus=8,gpu=A100,nic=4x200G-IB --nccl 2.30.7
                  --coll allreduce -b 64K -e 64M -f 32 --explain)
ncdx_model_golden(p2p-alltoall-sendrecv 0 ARGS model --spec ${h100x2} --coll alltoall,sendrecv -b 1M -e 1G -f 32)
ncdx_model_golden(algo-tree-2.26 0 ARGS model --spec ${h100x2} --nccl 2.26.2 --algo Tree --coll allreduce,allgather -b 1M -e 1M)
ncdx_model_golden(json-h100 0 JSON ARGS model --json --spec ${h100x2} --nccl 2.29.3 --coll allreduce,reducescatter -b 8 -e 1G -f 64 --explain)
ncdx_model_golden(what-if 0 ARGS model --spec ${h100x2} --coll allreduce -b 64M -e 64M
                  --what-if tp --what-if dp=7B:25M --what-if lose-nic --what-if lose-nvlink --what-if nccl=2.18.6)
ncdx_model_golden(json-what-if 0 JSON ARGS model --json --spec ${h100x2} -b 1G -e 1G --coll allreduce --what-if tp --what-if dp=70B:100M)
ncdx_model_golden(scale-100k 0 ARGS model --spec nodes=12500,gpus=8,gpu=H100,nic=8x400G-IB --coll allreduce,allgather -b 1M -e 1G -f 1024)
# Judging real nccl-tests outputs.
ncdx_model_golden(judge-moc-4gpu-slow 1 ARGS model --judge judge/moc-h100-roce-sendrecv-4gpu.txt --spec nodes=2,gpus=4,gpu=H100,nic=1x400G-RoCE --coll sendrecv)
ncdx_model_golden(judge-p5-ok 0 ARGS model --judge judge/aws-batch-p5-2node.txt --spec nodes=1,gpus=8,gpu=H100,cpu=amd)
ncdx_model_golden(judge-dgxh100-ok 0 ARGS model --judge judge/eugene-dgxh100-4gpu.txt --coll allreduce --spec nodes=1,gpus=4,gpu=H100,nvswitch=yes)
ncdx_model_golden(judge-dgxh100-no-ranks 0 ARGS model --judge judge/eugene-dgxh100-4gpu.txt --coll allreduce)
ncdx_model_golden(judge-a40-slow 1 ARGS model --judge judge/eugene-a40-node-p2pdisable.txt --spec nodes=1,gpus=2,gpu=A40,nvlink=none,p2p=no --coll allreduce)
ncdx_model_golden(judge-wrong 2 ARGS model --judge judge/synthetic-wrong.txt)
# A table-only output of a run made with NCCL_ALGO=RING NCCL_PROTO=simple (the record's env):
# --algo/--proto make the judge expect NCCL's forced Ring Simple, not its free choice.
ncdx_model_golden(judge-p4d-forced-ring 0 ARGS model --judge judge/aws-eks-p4d-efa-16gpu.txt --spec nodes=2,gpus=8,gpu=A100,nic=4x100G-EFA
                  --nccl 2.9.9 --coll allreduce --algo RING --proto simple)
ncdx_model_golden(judge-json-b200 0 JSON ARGS model --json --judge judge/dstack-lambda-b200-2node.txt --spec nodes=2,gpus=8,gpu=B200,nic=8x400G-IB)
ncdx_model_golden(judge-stdin 1 STDIN ${model_data}/judge/moc-h100-roce-sendrecv-4gpu.txt
                  ARGS model --judge - --spec nodes=2,gpus=4,gpu=H100,nic=1x400G-RoCE --coll sendrecv)
# Bad input and usage.
ncdx_model_golden(bad-spec-key 64 ARGS model --spec nodes=2,gpu=H100,nics=8x400G)
ncdx_model_golden(bad-spec-nic 64 ARGS model --spec nodes=2,gpus=8,gpu=H100,nic=eight)
ncdx_model_golden(bad-spec-gpu 64 ARGS model --spec gpu=Z9000)
ncdx_model_golden(spec-needs-nic 64 ARGS model --spec nodes=2,gpus=8,gpu=H100)
ncdx_model_golden(bad-algo-2.24 64 ARGS model --spec ${h100x2} --nccl 2.24.3 --algo CollNet)
ncdx_model_golden(no-spec 64 ARGS model)
ncdx_model_golden(judge-not-a-table 65 ARGS model --judge nccl_tests_specs.tsv)
ncdx_model_golden(judge-missing 66 ARGS model --judge judge/does-not-exist.txt)
# The α-β model of Open MPI's coll_tuned algorithms (--backend mpi, docs/MODEL.md (c)).
ncdx_model_golden(mpi-alphabeta-8 0 ARGS model --backend mpi --np 8 --alpha-us 150 --beta-ns 168 --beta-x-ns 336 --gamma-ns 0.5
                  -b 1K -e 1M -f 32)
ncdx_model_golden(mpi-alphabeta-6-ring 0 ARGS model --backend mpi --np 6 --alpha-us 150 --beta-ns 168 --coll allreduce
                  --algo ring,rabenseifner -b 8 -e 64K -f 8)
ncdx_model_golden(mpi-needs-link 64 ARGS model --backend mpi --np 4)
ncdx_model_golden(mpi-unknown-algo 64 ARGS model --backend mpi --np 4 --alpha-us 1 --beta-ns 1 --coll allreduce --algo bogus)
# ... and against Open MPI itself on namespace hosts with htb-shaped links (root, mpirun):
# bench/alphabeta_netns.py --fast (allreduce recursive doubling and ring, 2 and 4 ranks, 1 KiB and
# 256 KiB): the whole pipeline (γ, the link's one-way β and exchange β_x, forced algorithms,
# predictions), and a bound on the β-dominated points (256 KiB): predicted within +25 % / −50 % of
# the measured time. The slower side is wide because a busy machine only ever slows the ranks
# down (docs/MODEL.md (c): the ring at 4 ranks measured 17-31 % slower than predicted at 256 KiB
# at load 4-7, 13-15 % at 128 KiB and 1 MiB at load 1-4). The test fails on the model before the
# two β: it predicted the ring at 4 ranks (one-way) +37 % at load 7, +65 % at load 4, +95 % idle.
get_property(_mpi_built GLOBAL PROPERTY NCDX_MPI_BUILT)
find_package(Python3 COMPONENTS Interpreter QUIET)
if(_mpi_built AND Python3_FOUND)
  add_test(NAME model.netns.alphabeta
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/bench/alphabeta_netns.py --fast --ncdx $<TARGET_FILE:ncdx>
                   --max-beta-err 0.25 --slower-margin 0.25 --out ${CMAKE_CURRENT_BINARY_DIR}/alphabeta_fast.json)
  set_tests_properties(model.netns.alphabeta PROPERTIES LABELS "model;netns" SKIP_RETURN_CODE 77 TIMEOUT 600
                       RESOURCE_LOCK netns-cluster)
endif()

# The held-out set of docs/MODEL.md (b) end to end: bench/published_nccl_tests/collect.py rebuilds
# published_nccl_tests.jsonl from local git mirrors of its 5 source repositories (fails, naming the
# record, when a pinned commit, path or table is gone), then ModelValidation.HeldOutPublishedRuns
# judges it. Skips (77) without the mirrors (default /work/.mirror, or $NCDX_MIRRORS).
if(Python3_FOUND)
  # ncdx_published_runs_test(NAME FILTER ENV=MANIFEST...): collects each manifest into the build
  # dir (skips with 77 when a repository has no mirror) and runs the filtered test with ENV naming it.
  function(ncdx_published_runs_test name filter)
    set(_cmd "")
    set(_env "")
    foreach(_pair IN LISTS ARGN)
      string(REPLACE "=" ";" _kv "${_pair}")
      list(GET _kv 0 _var)
      list(GET _kv 1 _manifest)
      set(_out ${CMAKE_CURRENT_BINARY_DIR}/${name}.${_var}.jsonl)
      string(APPEND _cmd "'${Python3_EXECUTABLE}' bench/published_nccl_tests/collect.py --manifest '${_manifest}' --skip-missing -o '${_out}' || exit $?; ")
      string(APPEND _env "${_var}='${_out}' ")
    endforeach()
    add_test(NAME ${name}
             COMMAND bash -c "${_cmd}${_env}exec '$<TARGET_FILE:ncdx_unit>' --gtest_filter='${filter}' 2>&1"
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(${name} PROPERTIES LABELS "model;validation" SKIP_RETURN_CODE 77 TIMEOUT 300
                         FAIL_REGULAR_EXPRESSION "\\[  SKIPPED \\]|PASSED  \\] 0 tests|no pooled numbers")
  endfunction()
  set(_m1 NCDX_PUBLISHED_NCCL_TESTS=bench/published_nccl_tests/manifest.tsv)
  ncdx_published_runs_test(model.published_nccl_tests ModelValidation.HeldOutPublishedRuns ${_m1})
  # Held-out set 2 (manifest_set2.tsv, 5 more repositories), with set 1 for the pooled numbers.
  ncdx_published_runs_test(model.published_nccl_tests_2 ModelValidation.HeldOutPublishedRuns2 ${_m1}
                           NCDX_PUBLISHED_NCCL_TESTS_2=bench/published_nccl_tests/manifest_set2.tsv)
endif()
