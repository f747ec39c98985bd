# Doctor tests: a FAKE libnvidia-ml.so.1 built from fake_nvml.cc, and golden CLI runs over the
# fixture machines in tests/data/machines (UPDATE_GOLDEN=1 regenerates the goldens).
add_library(ncdx_fake_nvml SHARED ${CMAKE_CURRENT_LIST_DIR}/fake_nvml.cc)
target_link_libraries(ncdx_fake_nvml PRIVATE nlohmann_json::nlohmann_json)
set_target_properties(ncdx_fake_nvml PROPERTIES OUTPUT_NAME "nvidia-ml" PREFIX "lib" SUFFIX ".so.1"
                      LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests/fake_nvml)
add_dependencies(ncdx_unit ncdx_fake_nvml)
target_compile_definitions(ncdx_unit PRIVATE NCDX_FAKE_NVML="$<TARGET_FILE:ncdx_fake_nvml>"
                           NCDX_BIN="$<TARGET_FILE:ncdx>" NCDX_SOURCE_DIR="${CMAKE_SOURCE_DIR}")

set(_machines ${CMAKE_CURRENT_LIST_DIR}/../data/machines)
foreach(m dgx-h100 a100-pcie-acs pcie-4gpu broken nodriver)
  foreach(fmt text json)
    add_test(NAME doctor.golden.${m}.${fmt}
             COMMAND ${CMAKE_COMMAND} -DNCDX=$<TARGET_FILE:ncdx> -DFAKE=$<TARGET_FILE:ncdx_fake_nvml>
                     -DMACHINES=${_machines} -DMACHINE=${m} -DFORMAT=${fmt}
                     -DGOLDEN=${CMAKE_CURRENT_LIST_DIR}/../data/doctor/golden/${m}.${fmt}
                     -P ${CMAKE_CURRENT_LIST_DIR}/run_golden.cmake)
    set_tests_properties(doctor.golden.${m}.${fmt} PROPERTIES LABELS "doctor;golden")
  endforeach()
endforeach()

# Flag validation of the storage/checkpoint options (usage errors, exit 64).
foreach(case "bad-io-size|--io-size|12X" "bad-model-size|--model-size|huge" "bad-timeout|--timeout|0")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 flag)
  list(GET parts 2 value)
  ncdx_golden(doctor ${name} 64 WORKDIR ${CMAKE_CURRENT_LIST_DIR} GOLDEN_DIR ${CMAKE_CURRENT_LIST_DIR}/../data/doctor/golden
              ARGS doctor ${flag} ${value})
endforeach()
