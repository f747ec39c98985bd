# CLI golden tests for `ncdx env` and `ncdx compat`, and the docs/ENV.md freshness check. They run in
# tests/data/env with relative file names, so goldens hold no checkout path.
set(_env_data ${CMAKE_CURRENT_SOURCE_DIR}/data/env)
set(_env_run ${CMAKE_CURRENT_SOURCE_DIR}/env/run_golden.cmake)
function(ncdx_env_golden name rc golden)
  cmake_parse_arguments(G "STRIP_CONTEXT" "STDERR_MATCH" "ARGS" ${ARGN})
  set(defs -DEXPECT_RC=${rc})
  if(golden)
    list(APPEND defs -DGOLDEN=${golden})
  endif()
  if(G_STRIP_CONTEXT)
    list(APPEND defs -DSTRIP_CONTEXT=1)
  endif()
  if(G_STDERR_MATCH)
    list(APPEND defs "-DSTDERR_MATCH=${G_STDERR_MATCH}")
  endif()
  string(REPLACE ";" "|" cmd "$<TARGET_FILE:ncdx>;${G_ARGS}")
  add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} "-DCMD=${cmd}" ${defs} -P ${_env_run} WORKING_DIRECTORY ${_env_data})
  set_tests_properties(${name} PROPERTIES LABELS cli ENVIRONMENT "LC_ALL=C;NO_COLOR=1")
endfunction()

ncdx_env_golden(env_golden_lint_text_2_24 2 ${_env_data}/golden/lint_playbook_2.24.3.txt
  ARGS env lint --env-file playbook.env --nccl-version 2.24.3 --torch-version 2.6.0 --no-color)
ncdx_env_golden(env_golden_lint_text_2_18 1 ${_env_data}/golden/lint_playbook_2.18.3.txt
  ARGS env lint --env-file playbook.env --nccl-version 2.18.3 --torch-version 2.1.2 --no-color)
ncdx_env_golden(env_golden_lint_json 2 ${_env_data}/golden/lint_playbook_2.24.3.json STRIP_CONTEXT
  ARGS env lint --env-file playbook.env --nccl-version 2.24.3 --torch-version 2.6.0 --json --no-timestamps)
ncdx_env_golden(env_golden_recommend_ray 0 ${_env_data}/golden/recommend_4x8_roce_2.20.5.yaml
  ARGS env recommend --nodes 4 --gpus-per-node 8 --fabric roce --nccl-version 2.20.5 --format ray)
ncdx_env_golden(env_golden_recommend_json 0 ${_env_data}/golden/recommend_2x8_socket.json STRIP_CONTEXT
  ARGS env recommend --nodes 2 --gpus-per-node 8 --fabric socket --json --no-timestamps)
ncdx_env_golden(env_golden_debug_export 0 ${_env_data}/golden/debug_2.27.5_torch2.8.0.sh
  ARGS env debug --nccl-version 2.27.5 --torch-version 2.8.0)
ncdx_env_golden(env_bad_file_exit65 65 "" STDERR_MATCH "bad_quote.env:2: unterminated double quote"
  ARGS env lint --env-file bad_quote.env)
ncdx_env_golden(env_missing_file_exit66 66 "" ARGS env lint --env-file does-not-exist.env)
ncdx_env_golden(env_bad_version_exit64 64 "" ARGS env lint --env-file playbook.env --nccl-version banana)
# docs/ENV.md must be what `ncdx env docs` prints (UPDATE_GOLDEN=1 regenerates it).
ncdx_env_golden(env_docs_fresh 0 ${CMAKE_SOURCE_DIR}/docs/ENV.md ARGS env docs)

# ncdx compat over the rooted fixtures (tests/data/compat, see SOURCES.md there).
set(_compat_data ${CMAKE_CURRENT_SOURCE_DIR}/data/compat)
ncdx_env_golden(compat_golden_h100_torch26_text 1 ${_compat_data}/golden/h100-torch26.txt
  ARGS compat --root ${_compat_data}/h100-torch26 --no-color)
ncdx_env_golden(compat_golden_old_nccl_venv_json 2 ${_compat_data}/golden/h100-old-nccl-venv.json STRIP_CONTEXT
  ARGS compat --root ${_compat_data}/h100-old-nccl-venv --python-prefix /opt/venv --json --no-timestamps)
ncdx_env_golden(compat_bad_flag_exit64 64 "" ARGS compat --driver banana)
