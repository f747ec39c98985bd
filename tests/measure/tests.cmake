# GPU measurement tests.
#  - measure.gpu (label gpu): the real CUDA/NCCL benchmarks; they SKIP cleanly without a driver.
#  - measure.fake_cuda*: the same code driven through small stand-in libcudart/libnccl built here
#    (loaded through NCDX_CUDART_LIB / NCDX_NCCL_LIB), so the dlopen path and the benchmark logic
#    run on machines without a GPU.
add_library(ncdx_fake_cudart SHARED ${CMAKE_CURRENT_LIST_DIR}/fake/fake_cudart.cc)
add_library(ncdx_fake_nccl SHARED ${CMAKE_CURRENT_LIST_DIR}/fake/fake_nccl.cc)
target_link_libraries(ncdx_fake_nccl PRIVATE ${CMAKE_DL_LIBS})  # dlopens NCCL_TUNER_PLUGIN (FAKE_NCCL_ENV_LOG)
add_test(NAME measure.gpu COMMAND ncdx_unit --gtest_filter=GpuHardware.*)
set_tests_properties(measure.gpu PROPERTIES LABELS gpu SKIP_REGULAR_EXPRESSION "\\[  SKIPPED \\]")
set(fake_env "NCDX_CUDART_LIB=$<TARGET_FILE:ncdx_fake_cudart>;NCDX_NCCL_LIB=$<TARGET_FILE:ncdx_fake_nccl>")
add_test(NAME measure.fake_cuda COMMAND ncdx_unit --gtest_filter=FakeCuda.*)
set_tests_properties(measure.fake_cuda PROPERTIES LABELS "unit;fake" ENVIRONMENT "${fake_env};NCDX_FAKE_CUDA=2"
                     FAIL_REGULAR_EXPRESSION "\\[  SKIPPED \\]")
add_test(NAME measure.fake_cuda_nodevice COMMAND ncdx_unit --gtest_filter=FakeCudaNoDevice.*)
set_tests_properties(measure.fake_cuda_nodevice PROPERTIES LABELS "unit;fake"
                     ENVIRONMENT "${fake_env};NCDX_FAKE_CUDA=0;FAKE_CUDART_DEVICES=0")
add_test(NAME measure.fake_cuda_nodriver COMMAND ncdx_unit --gtest_filter=FakeCudaNoDevice.*)
set_tests_properties(measure.fake_cuda_nodriver PROPERTIES LABELS "unit;fake"
                     ENVIRONMENT "${fake_env};NCDX_FAKE_CUDA=0;FAKE_CUDART_DEVICES=nodriver")
set_tests_properties(measure.fake_cuda_nodevice measure.fake_cuda_nodriver PROPERTIES FAIL_REGULAR_EXPRESSION "\\[  SKIPPED \\]")
add_dependencies(ncdx_unit ncdx_fake_cudart ncdx_fake_nccl)
