# The NCCL tuner plugin, loaded by dlopen in a harness that calls its entry points with the ABI
# structs (tests/tuner/tuner_plugin_test.cc). No NCCL or GPU is needed: the plugin's contract is
# with the tables NCCL passes, which the harness builds the way NCCL does.
add_executable(ncdx_tuner_test ${CMAKE_CURRENT_LIST_DIR}/tuner_plugin_test.cc)
target_include_directories(ncdx_tuner_test PRIVATE ${CMAKE_SOURCE_DIR}/plugins/nccl-tuner)
target_compile_definitions(ncdx_tuner_test PRIVATE NCDX_TUNER_SO="$<TARGET_FILE:nccl-tuner-ncdx>")
target_link_libraries(ncdx_tuner_test PRIVATE GTest::gtest_main ${CMAKE_DL_LIBS})
add_dependencies(ncdx_tuner_test nccl-tuner-ncdx)
gtest_discover_tests(ncdx_tuner_test TEST_PREFIX tuner. DISCOVERY_TIMEOUT 60 PROPERTIES LABELS "unit;tuner")
