# `ncdx bench --backend mpi` end to end under the real mpirun (-np 4, oversubscribed on CI's two
# cores): text in nccl-tests' format, JSON against docs/schema/bench.schema.json, nccl-tests'
# JSON, data checks over types and ops. Skips (77) without mpirun or without MPI in the build.
add_test(NAME bench.mpi_np4
         COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/mpi_bench_check.py $<TARGET_FILE:ncdx> ${CMAKE_SOURCE_DIR}/docs/schema
                 ${CMAKE_SOURCE_DIR}/tests/validate_schema.py)
set_tests_properties(bench.mpi_np4 PROPERTIES LABELS "mpi;bench" SKIP_RETURN_CODE 77 TIMEOUT 240)

# `ncdx bench --backend nccl --spec`: the cost model's expected busbw per row equals what
# `ncdx model --judge` says of the same output; through the stand-in libcudart/libnccl
# (tests/measure/tests.cmake), so it runs without a GPU.
add_test(NAME bench.nccl_expect
         COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/nccl_expect_check.py $<TARGET_FILE:ncdx> ${CMAKE_SOURCE_DIR}/docs/schema
                 ${CMAKE_SOURCE_DIR}/tests/validate_schema.py)
set_tests_properties(bench.nccl_expect PROPERTIES LABELS "bench;fake" TIMEOUT 120
                     ENVIRONMENT "NCDX_CUDART_LIB=$<TARGET_FILE:ncdx_fake_cudart>;NCDX_NCCL_LIB=$<TARGET_FILE:ncdx_fake_nccl>;NCDX_FAKE_CUDA=2")
