# `ncdx tune --backend nccl` end to end against the stand-in libcudart/libnccl of tests/measure/fake
# (2 host-memory "GPUs", one process): probes, guided and exhaustive search, the tuner CSV and the
# validation through the built libnccl-tuner-ncdx.so. The stand-in ignores NCCL_ALGO, so every
# configuration measures the same and the decision rule must keep NCCL's default in every bucket;
# FAKE_NCCL_ENV_LOG shows that each trial's environment reached the library.
add_test(NAME tune.nccl_fake
         COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/nccl_fake_check.py $<TARGET_FILE:ncdx> $<TARGET_FILE:nccl-tuner-ncdx>
                 ${CMAKE_SOURCE_DIR}/docs/schema ${CMAKE_SOURCE_DIR}/tests/validate_schema.py)
set_tests_properties(tune.nccl_fake PROPERTIES LABELS "tune;fake" TIMEOUT 300
                     ENVIRONMENT "NCDX_CUDART_LIB=$<TARGET_FILE:ncdx_fake_cudart>;NCDX_NCCL_LIB=$<TARGET_FILE:ncdx_fake_nccl>;NCDX_FAKE_CUDA=2")
