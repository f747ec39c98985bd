# `ncdx report`: the combined HTML in a real headless Chromium (skips with the reason without one),
# and the text report of saved results as a golden.
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  add_test(NAME report.chromium
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/report/chromium_check.py $<TARGET_FILE:ncdx>
                   ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR}/report-chromium)
  set_tests_properties(report.chromium PROPERTIES LABELS "report;browser" SKIP_RETURN_CODE 77 TIMEOUT 300)
  # One summary object in every command's JSON (#13 §4): the keys, each count against the items
  # of the document, status the worst, the exit code status's; the schemas' summary blocks alike.
  add_test(NAME report.summary_every_command
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/report/summary_check.py $<TARGET_FILE:ncdx>
                   ${CMAKE_SOURCE_DIR} $<TARGET_FILE:ncdx_fake_nvml>)
  set_tests_properties(report.summary_every_command PROPERTIES LABELS "report" TIMEOUT 120)
endif()
ncdx_golden(report text 2 GOLDEN_DIR ${CMAKE_SOURCE_DIR}/tests/report/golden
            ARGS report tests/data/report/doctor-broken.json tests/data/report/triage-example.json tests/data/report/env-lint.json --no-color)
ncdx_golden(report json 2 JSON SCHEMA ${CMAKE_SOURCE_DIR}/docs/schema/report.schema.json GOLDEN_DIR ${CMAKE_SOURCE_DIR}/tests/report/golden
            ARGS report tests/data/report/doctor-broken.json tests/data/report/triage-example.json --json --no-timestamps)
# Failures first across documents: the broken node's report comes before the env lint given first.
ncdx_golden(report failures-first 2 GOLDEN_DIR ${CMAKE_SOURCE_DIR}/tests/report/golden
            ARGS report tests/data/report/env-lint.json tests/data/report/doctor-broken.json --no-color)
ncdx_golden(report not-json 65 STDERR_MATCH "README.md" ARGS report tests/data/report/README.md)
ncdx_golden(report not-a-result 65 STDERR_MATCH "not an ncdx JSON result" ARGS report tests/data/report/not-a-result.json)
ncdx_golden(report missing 66 STDERR_MATCH "cannot open" ARGS report tests/data/report/absent.json)
# JUnit files against the schema Jenkins' xunit plugin publishes (downloaded at test time) plus the
# hostname/timestamp/per-host suite names a CI needs to tell many nodes apart (#13); lxml comes from
# the oracle venv (scripts/py-oracles.sh).
add_test(NAME report.junit_xsd COMMAND ${CMAKE_BINARY_DIR}/venv/bin/python3 ${CMAKE_SOURCE_DIR}/tests/report/junit_xsd_check.py $<TARGET_FILE:ncdx>
                                       ${CMAKE_BINARY_DIR}/report-junit)
set_tests_properties(report.junit_xsd PROPERTIES LABELS "report" SKIP_RETURN_CODE 77 TIMEOUT 300)
