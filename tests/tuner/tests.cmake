# The NCCL tuner plugin, loaded by dlopen in a harness that calls its entry points with the ABI
# structs (tests/tuner/tuner_plugin_test.cc). No NCCL or GPU is needed: the plugin's contract is
# with the tables NCCL passes, which the harness builds the way NCCL does.
add_executable(ncdx_tuner_test ${CMAKE_CURRENT_LIST_DIR}/tuner_plugin_test.cc)
target_include_directories(ncdx_tuner_test PRIVATE ${CMAKE_SOURCE_DIR}/plugins/nccl-tuner)
target_compile_definitions(ncdx_tuner_test PRIVATE NCDX_TUNER_SO="$<TARGET_FILE:nccl-tuner-ncdx>")
target_link_libraries(ncdx_tuner_test PRIVATE GTest::gtest_main ${CMAKE_DL_LIBS})
add_dependencies(ncdx_tuner_test nccl-tuner-ncdx)
gtest_discover_tests(ncdx_tuner_test TEST_PREFIX tuner. DISCOVERY_TIMEOUT 60 PROPERTIES LABELS "unit;tuner")
# The plugin's coverage under that harness (gcc --coverage + gcov, whatever compiler builds the
# rest): measured 2026-12-07 lines 98.6 % (all but the out-of-memory return), branches taken 82.1 %;
# the floors keep it there.
add_test(NAME tuner.coverage COMMAND env CC=gcc CXX=g++ GCOV=gcov bash ${CMAKE_SOURCE_DIR}/scripts/plugin-coverage.sh 98 80)
set_tests_properties(tuner.coverage PROPERTIES LABELS "tuner")

# `ncdx tune --model` end to end: the tuner file it writes, loaded by the plugin above with NCCL's
# own cost tables from the model (tests/tuner/model_table_check.cc). The calibrated case is the
# real nccl-tests run of a 2-node B200 cluster (tests/data/model/judge/dstack-lambda-b200-2node.txt,
# NCCL 2.26.2 per its header): its latency, 1.57 x NCCL's, moves the LL/LL128 crossover, so the
# calibrated model beats NCCL's pick in the 1 MiB buckets of AllGather and ReduceScatter (2 rules).
# Uncalibrated, the model agrees with NCCL everywhere: a header-only file the plugin ignores.
add_executable(ncdx_tuner_model_check ${CMAKE_CURRENT_LIST_DIR}/model_table_check.cc)
target_include_directories(ncdx_tuner_model_check PRIVATE ${CMAKE_SOURCE_DIR}/plugins/nccl-tuner)
target_link_libraries(ncdx_tuner_model_check PRIVATE ncdx_all_layers ${CMAKE_DL_LIBS})
set(_b200 nodes=2,gpus=8,gpu=B200,nic=8x400G-IB)
add_test(NAME tuner.model_table_calibrated_b200
         COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/model_table_e2e.sh $<TARGET_FILE:ncdx> $<TARGET_FILE:ncdx_tuner_model_check>
                 $<TARGET_FILE:nccl-tuner-ncdx> ${CMAKE_CURRENT_BINARY_DIR}/tune_model_b200 2
                 --spec ${_b200} --nccl 2.26.2 --calibrate ${CMAKE_SOURCE_DIR}/tests/data/model/judge/dstack-lambda-b200-2node.txt)
add_test(NAME tuner.model_table_agrees_h100
         COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/model_table_e2e.sh $<TARGET_FILE:ncdx> $<TARGET_FILE:ncdx_tuner_model_check>
                 $<TARGET_FILE:nccl-tuner-ncdx> ${CMAKE_CURRENT_BINARY_DIR}/tune_model_h100 0
                 --spec nodes=2,gpus=8,gpu=H100,nvlink=NV18,nic=8x400G-IB --nccl 2.27.7)
set_tests_properties(tuner.model_table_calibrated_b200 tuner.model_table_agrees_h100 PROPERTIES LABELS "tuner;model")

# `ncdx tune --model` output and errors (goldens; files go to a scratch directory of the build).
set(_tm_work ${CMAKE_CURRENT_BINARY_DIR}/tune_model_golden)
file(MAKE_DIRECTORY ${_tm_work})
set(_tm_b200_run ${CMAKE_SOURCE_DIR}/tests/data/model/judge/dstack-lambda-b200-2node.txt)
function(ncdx_tune_model_golden name expect)
  ncdx_golden(tune ${name} ${expect} WORKDIR ${_tm_work} GOLDEN_DIR ${CMAKE_CURRENT_LIST_DIR}/golden
              SCHEMA ${CMAKE_SOURCE_DIR}/docs/schema/tune.schema.json REPLACE ${CMAKE_SOURCE_DIR} <src> ${ARGN})
endfunction()
ncdx_tune_model_golden(model-b200-calibrated 0 ARGS tune --model --spec ${_b200} --nccl 2.26.2 --calibrate ${_tm_b200_run}
                       --collectives allgather,allreduce -b 256K -e 4M --out b200)
ncdx_tune_model_golden(model-b200-env 0 ARGS tune --model --spec ${_b200} --nccl 2.26.2 --calibrate ${_tm_b200_run}
                       --collectives allgather -b 1M -e 1M --tuner-file env1.conf --env-file env1.env)
ncdx_tune_model_golden(model-h100-agrees-json 0 JSON ARGS tune --model --json --spec nodes=2,gpus=8,gpu=H100,nvlink=NV18,nic=8x400G-IB
                       --nccl 2.30.7 --collectives allreduce,allgather -b 8 -e 1G -f 64 --out h100)
ncdx_tune_model_golden(model-no-spec 64 ARGS tune --model)
ncdx_tune_model_golden(model-bad-spec 64 ARGS tune --model --spec nodes=2,gpus=8,gpu=H100,nic=eight)
ncdx_tune_model_golden(model-with-backend 64 ARGS tune --model --backend nccl --spec ${_b200})
ncdx_tune_model_golden(model-with-np 64 ARGS tune --model --np 4 --spec ${_b200})
ncdx_tune_model_golden(spec-without-model 64 ARGS tune --spec ${_b200})
ncdx_tune_model_golden(model-p2p-collective 64 ARGS tune --model --spec ${_b200} --collectives alltoall)
ncdx_tune_model_golden(model-bad-gain 64 ARGS tune --model --spec ${_b200} --min-gain 0)
ncdx_tune_model_golden(model-out-and-file 64 ARGS tune --model --spec ${_b200} --out x --tuner-file y)
ncdx_tune_model_golden(model-calibrate-missing 66 ARGS tune --model --spec ${_b200} --calibrate does-not-exist.txt)
ncdx_tune_model_golden(model-calibrate-not-a-table 65 ARGS tune --model --spec ${_b200}
                       --calibrate ${CMAKE_SOURCE_DIR}/tests/data/model/nccl_tests_specs.tsv)
ncdx_tune_model_golden(model-bad-algo-2.24 64 ARGS tune --model --spec ${_b200} --nccl 2.24.3 --algo CollNet)
