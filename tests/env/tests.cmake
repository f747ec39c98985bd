# CLI golden tests for `ncdx env` and `ncdx compat`. They run in tests/data/env with relative file
# names, so goldens hold no checkout path. Runner: ncdx_golden (tests/CMakeLists.txt).
set(_env_data ${CMAKE_CURRENT_SOURCE_DIR}/data/env)
# ncdx_env_golden(name exit golden|"" [STRIP_CONTEXT] [SCHEMA file] [STDERR_MATCH re] ARGS ...)
function(ncdx_env_golden name rc golden)
  cmake_parse_arguments(G "STRIP_CONTEXT" "STDERR_MATCH;SCHEMA" "ARGS" ${ARGN})
  set(opts)
  if(golden)
    list(APPEND opts GOLDEN ${golden})
  endif()
  if(G_STRIP_CONTEXT)
    list(APPEND opts JSON)
  endif()
  if(G_SCHEMA)
    list(APPEND opts SCHEMA ${CMAKE_SOURCE_DIR}/docs/schema/${G_SCHEMA})
  endif()
  if(G_STDERR_MATCH)
    list(APPEND opts STDERR_MATCH ${G_STDERR_MATCH})
  endif()
  ncdx_golden(env ${name} ${rc} WORKDIR ${_env_data} ${opts} ARGS ${G_ARGS})
endfunction()

ncdx_env_golden(lint_text_2_24 2 ${_env_data}/golden/lint_playbook_2.24.3.txt
  ARGS env lint --env-file playbook.env --nccl-version 2.24.3 --torch-version 2.6.0)
# At 80 columns (#13 §3): the risk moves to each row's note, value and recommendation wrap.
ncdx_golden(env lint_text_2_24.80cols 2 WORKDIR ${_env_data} GOLDEN ${_env_data}/golden/lint_playbook_2.24.3.80cols.txt
            ENV GOLDEN_COLUMNS=80 ARGS env lint --env-file playbook.env --nccl-version 2.24.3 --torch-version 2.6.0)
ncdx_env_golden(lint_text_2_18 1 ${_env_data}/golden/lint_playbook_2.18.3.txt
  ARGS env lint --env-file playbook.env --nccl-version 2.18.3 --torch-version 2.1.2)
ncdx_env_golden(lint_json 2 ${_env_data}/golden/lint_playbook_2.24.3.json STRIP_CONTEXT SCHEMA env.schema.json
  ARGS env lint --env-file playbook.env --nccl-version 2.24.3 --torch-version 2.6.0 --json)
ncdx_env_golden(recommend_ray 0 ${_env_data}/golden/recommend_4x8_roce_2.20.5.yaml
  ARGS env recommend --nodes 4 --gpus-per-node 8 --fabric roce --nccl-version 2.20.5 --format ray)
ncdx_env_golden(recommend_json 0 ${_env_data}/golden/recommend_2x8_socket.json STRIP_CONTEXT SCHEMA env.schema.json
  ARGS env recommend --nodes 2 --gpus-per-node 8 --fabric socket --json)
ncdx_env_golden(debug_export 0 ${_env_data}/golden/debug_2.27.5_torch2.8.0.sh
  ARGS env debug --nccl-version 2.27.5 --torch-version 2.8.0)
ncdx_env_golden(bad_file_exit65 65 "" STDERR_MATCH "bad_quote.env:2: unterminated double quote"
  ARGS env lint --env-file bad_quote.env)
ncdx_env_golden(missing_file_exit66 66 "" ARGS env lint --env-file does-not-exist.env)
ncdx_env_golden(bad_version_exit64 64 "" ARGS env lint --env-file playbook.env --nccl-version banana)

# ncdx compat over the rooted fixtures (tests/data/compat, see SOURCES.md there).
set(_compat_data ${CMAKE_CURRENT_SOURCE_DIR}/data/compat)
ncdx_env_golden(compat_h100_torch26_text 1 ${_compat_data}/golden/h100-torch26.txt
  ARGS compat --root ${_compat_data}/h100-torch26)
ncdx_golden(env compat_old_nccl_venv.80cols 2 WORKDIR ${_env_data} GOLDEN ${_compat_data}/golden/h100-old-nccl-venv.80cols.txt
            ENV GOLDEN_COLUMNS=80 ARGS compat --root ${_compat_data}/h100-old-nccl-venv --python-prefix /opt/venv)
ncdx_env_golden(compat_old_nccl_venv_json 2 ${_compat_data}/golden/h100-old-nccl-venv.json STRIP_CONTEXT SCHEMA compat.schema.json
  ARGS compat --root ${_compat_data}/h100-old-nccl-venv --python-prefix /opt/venv --json)
ncdx_env_golden(compat_bad_flag_exit64 64 "" ARGS compat --driver banana)
# The engines' own torch pins and verl's extras from release metadata (compat_pins.tsv): flags
# override what the fixture has, so each pairing is a known WARN or PASS.
ncdx_env_golden(compat_release_pins_text 1 ${_compat_data}/golden/release-pins-flags.txt
  ARGS compat --root ${_compat_data}/h100-torch26 --torch 2.8.0 --vllm 0.8.5 --sglang 0.4.6.post5 --verl 0.7.1)
# compat_pins.tsv is the output of scripts/compat-pins.py: re-derived from the package index and
# compared row by row (the generation date aside). Skips (77) when the index cannot be reached.
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_FOUND)
  add_test(NAME env.compat_pins_fresh
           COMMAND ${Python3_EXECUTABLE} scripts/compat-pins.py --check src/knowledge/data/compat_pins.tsv
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(env.compat_pins_fresh PROPERTIES LABELS "env;network" SKIP_RETURN_CODE 77 TIMEOUT 300)
  # Offline: the script's Requires-Dist parsing, and its 77 for an unreachable index.
  add_test(NAME env.compat_pins_script
           COMMAND ${Python3_EXECUTABLE} tests/env/compat_pins_parse_check.py scripts/compat-pins.py
                   src/knowledge/data/compat_pins.tsv
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(env.compat_pins_script PROPERTIES LABELS "env" TIMEOUT 120)
endif()
ncdx_env_golden(debug_json_schema 0 "" SCHEMA env.schema.json
  ARGS env debug --nccl-version 2.21.5 --json)
ncdx_env_golden(compat_flags_json_schema 1 "" SCHEMA compat.schema.json
  ARGS compat --root ${_compat_data}/h100-torch26 --driver 535.104.05 --torch 2.6.0 --nccl 2.20.5 --json)
ncdx_env_golden(recommend_from_snapshot 0 ${_env_data}/golden/recommend_from_snapshot_ib.sh
  ARGS env recommend --nodes 4 --fabric ib --from ../topo/snapshot-h100-12nic.json --nccl-version 2.27.5)
ncdx_env_golden(recommend_from_bad_json_exit65 65 "" ARGS env recommend --nodes 2 --from bad_quote.env)
# A whole machine: versions detected under --root, /etc/nccl.conf and ~/.nccl.conf merged with NCCL's
# precedence, interfaces from /sys/class/net.
ncdx_env_golden(lint_root 2 ${_env_data}/golden/lint_root_h100.txt
  ARGS env lint --root ../compat/h100-torch26 --env-file root_job.env)
