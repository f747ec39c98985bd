# Doctor tests: a FAKE libnvidia-ml.so.1 built from fake_nvml.cc, and golden CLI runs over the
# fixture machines in tests/data/machines (UPDATE_GOLDEN=1 regenerates the goldens).
add_library(ncdx_fake_nvml SHARED ${CMAKE_CURRENT_LIST_DIR}/fake_nvml.cc)
target_link_libraries(ncdx_fake_nvml PRIVATE nlohmann_json::nlohmann_json)
set_target_properties(ncdx_fake_nvml PROPERTIES OUTPUT_NAME "nvidia-ml" PREFIX "lib" SUFFIX ".so.1"
                      LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests/fake_nvml)
add_dependencies(ncdx_unit ncdx_fake_nvml)

set(_machines ${CMAKE_CURRENT_LIST_DIR}/../data/machines)
set(_doctor_golden ${CMAKE_CURRENT_LIST_DIR}/../data/doctor/golden)
# machine|exit: a clean DGX passes, the PCIe box warns, the rest fail.
foreach(case dgx-h100|0 a100-pcie-acs|2 pcie-4gpu|1 broken|2 nodriver|2)
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 m)
  list(GET parts 1 rc)
  set(_fake ENV NCDX_NVML_LIB=$<TARGET_FILE:ncdx_fake_nvml> NCDX_FAKE_NVML_JSON=${_machines}/${m}/nvml.json
            REPLACE $<TARGET_FILE:ncdx_fake_nvml> "<fake libnvidia-ml.so.1>")
  ncdx_golden(doctor ${m}.text ${rc} WORKDIR ${_machines} GOLDEN ${_doctor_golden}/${m}.text ${_fake} ARGS doctor --root ${m})
  ncdx_golden(doctor ${m}.json ${rc} WORKDIR ${_machines} GOLDEN ${_doctor_golden}/${m}.json JSON
              SCHEMA ${CMAKE_SOURCE_DIR}/docs/schema/doctor.schema.json ${_fake} ARGS doctor --root ${m} --json)
endforeach()

# Terminal layout (#13): the failing node at 80 columns (RESULT and fixes wrap, SKIPs folded) and
# with --all (every SKIP row in its category).
ncdx_golden(doctor broken.80cols 2 WORKDIR ${_machines} GOLDEN ${_doctor_golden}/broken.80cols.text
            ENV NCDX_NVML_LIB=$<TARGET_FILE:ncdx_fake_nvml> NCDX_FAKE_NVML_JSON=${_machines}/broken/nvml.json GOLDEN_COLUMNS=80
            REPLACE $<TARGET_FILE:ncdx_fake_nvml> "<fake libnvidia-ml.so.1>" ARGS doctor --root broken)
ncdx_golden(doctor nodriver.all 2 WORKDIR ${_machines} GOLDEN ${_doctor_golden}/nodriver.all.text
            ENV NCDX_NVML_LIB=$<TARGET_FILE:ncdx_fake_nvml> NCDX_FAKE_NVML_JSON=${_machines}/nodriver/nvml.json
            REPLACE $<TARGET_FILE:ncdx_fake_nvml> "<fake libnvidia-ml.so.1>" ARGS doctor --root nodriver --all)

# Flag validation of the storage/checkpoint options (usage errors, exit 64).
foreach(case "bad-io-size|--io-size|12X" "bad-model-size|--model-size|huge" "bad-timeout|--timeout|0")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 flag)
  list(GET parts 2 value)
  ncdx_golden(doctor ${name} 64 WORKDIR ${CMAKE_CURRENT_LIST_DIR} GOLDEN_DIR ${_doctor_golden} ARGS doctor ${flag} ${value})
endforeach()

# Preflight gates (#13): a node that differs from what the fleet expects FAILs; -r levels map to
# --quick/default/--full. Exit codes pin the verdict; the text golden pins the rows.
ncdx_golden(doctor expect-all-met 0 WORKDIR ${_machines} ARGS doctor --root dgx-h100 --expect-gpus 8 --expect-nics 8 --expect-driver 550 --expect-nccl 2.21.5)
ncdx_golden(doctor expect-gpu-missing 2 WORKDIR ${_machines} STDERR_MATCH "^$" ARGS doctor --root dgx-h100 --expect-gpus 9 -r 1)
ncdx_golden(doctor expect-nccl-other 2 WORKDIR ${_machines} ARGS doctor --root dgx-h100 --expect-nccl 2.18)
ncdx_golden(doctor expect-negative 64 WORKDIR ${_machines} ARGS doctor --root dgx-h100 --expect-gpus -1)
ncdx_golden(doctor level-out-of-range 64 WORKDIR ${_machines} ARGS doctor --root dgx-h100 -r 4)
ncdx_golden(doctor level-quick-and-full 64 WORKDIR ${_machines} ARGS doctor --root dgx-h100 -r 1 --full)
