# CLI golden tests of `ncdx audit` and `ncdx template` (text, JSON, Markdown, --print, --migrate),
# exit codes, bad input, and the Hydra/OmegaConf oracle comparison.
set(_a ${CMAKE_CURRENT_LIST_DIR})
set(_d tests/data/audit)
set(_common audit --no-process-env)
# audit_golden(name exit golden json ARGS...) / audit_rc(name exit stderr-regex ARGS...) through
# ncdx_golden (tests/CMakeLists.txt); JSON output is validated against docs/schema/audit.schema.json.
function(audit_golden name rc golden json)
  set(opts)
  if(json)
    set(opts JSON SCHEMA ${CMAKE_SOURCE_DIR}/docs/schema/audit.schema.json)
  endif()
  ncdx_golden(audit ${name} ${rc} GOLDEN ${golden} ${opts} ARGS ${ARGN})
endfunction()
function(audit_rc name rc stderr_re)
  ncdx_golden(audit ${name} ${rc} STDERR_MATCH ${stderr_re} ARGS ${ARGN})
endfunction()

set(_playbook trainer.dist_backend=nccl model.tensor_parallel_size=8 +actor_rollout_ref.nccl_timeout=1200 actor_rollout_ref.rollout.name=vllm)
audit_golden(playbook_text 2 ${_a}/golden/playbook.txt 0 ${_common} --verl-version 0.7.1 -- ${_playbook})
audit_golden(playbook_json 2 ${_a}/golden/playbook.json 1 --json ${_common} --verl-version 0.7.1 -- ${_playbook})
audit_golden(playbook_md 2 ${_a}/golden/playbook.md 0 ${_common} --format md --verl-version 0.7.1 -- ${_playbook})
audit_golden(playbook_migrate 0 ${_a}/golden/playbook_migrate.sh 0 ${_common} --migrate --verl-version 0.7.1 -- ${_playbook})
# On FSDP 0.5 the key does not exist: '+' is right, but nothing reads it. (The rollout's
# log_prob_micro_batch_size_per_gpu is set so that verl's validate_config passes: the WARN is the timeout's.)
set(_lp actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=4)
audit_golden(timeout_fsdp05 1 ${_a}/golden/timeout_fsdp05.txt 0 ${_common} --verl-version 0.5.0 --model-size 7B
             -- +actor_rollout_ref.nccl_timeout=1200 ${_lp})
# On 0.8+ the key exists and is ignored (engine workers pass timeout_second=None).
audit_golden(timeout_v08 1 ${_a}/golden/timeout_v08.txt 0 ${_common} --verl-version 0.8.0 --model-size 7B
             -- actor_rollout_ref.nccl_timeout=1200 actor_rollout_ref.rollout.name=vllm ${_lp})
# Exit 0: the only WARN it had was verl's own default timeout (600 s), now INFO (#11 §4).
audit_golden(qwen3_8b_json 0 ${_a}/golden/qwen3_8b.json 1 --json ${_common} --verl-version 0.7.1 --nodes 1 --gpus-per-node 8
             --gpu-mem-gib 80 --script ${_d}/run_qwen3-8b.sh)
audit_golden(buggy_70b_text 2 ${_a}/golden/buggy_70b.txt 0 ${_common} --verl-version 0.7.1 --nodes 4 --gpus-per-node 8
             --gpu-mem-gib 96 --fabric ib --script ${_d}/qwen2-70b_grpo_32_h20_fsdp_vllm.sh)
# At 80 columns (#13 §3): four columns (status, parameter, value, why) wrapped; recommended, risk
# threshold and source in the details.
ncdx_golden(audit buggy_70b.80cols 2 GOLDEN ${_a}/golden/buggy_70b.80cols.txt ENV GOLDEN_COLUMNS=80
            ARGS ${_common} --verl-version 0.7.1 --nodes 4 --gpus-per-node 8 --gpu-mem-gib 96 --fabric ib
                 --script ${_d}/qwen2-70b_grpo_32_h20_fsdp_vllm.sh)
audit_golden(megatron_235b_md 2 ${_a}/golden/megatron_235b.md 0 ${_common} --format md --verl-version 0.7.1 --nodes 4
             --gpus-per-node 8 --gpu-mem-gib 96 --script ${_d}/run_qwen3-235b_megatron_96gb.sh)
audit_golden(npu_sglang_text 0 ${_a}/golden/npu_sglang.txt 0 ${_common} --verl-version 0.7.1 --nodes 1 --gpus-per-node 8
             --script ${_d}/run_qwen3_8b_grpo_sglang_32k_spmd_npu.sh)
audit_golden(ray_init_v06_migrate 0 ${_a}/golden/ray_init_migrate.sh 0 ${_common} --migrate --verl-version 0.6.0
             -- ray_init.timeline_json_file=/tmp/t.json ray_init.num_cpus=8 actor_rollout_ref.rollout.name=vllm)
# --print --json is the composed config, not an audit report: no schema.
ncdx_golden(audit print_json 0 GOLDEN ${_a}/golden/print.json JSON
            ARGS --json ${_common} --print --verl-version 0.7.1 --config ${_d}/partial.yaml -- trainer.nnodes=2)
audit_golden(env_rows 2 ${_a}/golden/env_rows.json 1 --json ${_common} --verl-version 0.7.1 --env-file ${_d}/playbook.env
             -- actor_rollout_ref.rollout.name=vllm)

audit_rc(malformed_yaml 65 "malformed.yaml:4:1: malformed YAML" ${_common} --config ${_d}/malformed.yaml)
audit_rc(binary_yaml 65 "binary.yaml:2: binary data" ${_common} --config ${_d}/binary.yaml)
audit_rc(unbalanced_quote 65 "unbalanced_quote.sh:2: unbalanced single quote" ${_common} --script ${_d}/unbalanced_quote.sh)
audit_rc(trailing_continuation 65 "trailing_continuation.sh:2: line continuation" ${_common} --script ${_d}/trailing_continuation.sh)
audit_rc(bad_override 65 "override 'a.b=choice" ${_common} -- a.b=choice\(1,2\))
audit_rc(missing_file 66 "cannot open" ${_common} --config ${_d}/does-not-exist.yaml)
audit_rc(nothing 64 "nothing to audit" ${_common})
audit_rc(bad_version 64 "verl-version" ${_common} --verl-version banana -- a=1)
audit_rc(bare_strict 65 "Could not override 'trainer.nope'" ${_common} --bare --print --config ${_d}/partial.yaml -- trainer.nope=1)

# Oracle: ncdx's composition vs Hydra/OmegaConf, when build/venv has them (scripts/py-oracles.sh).
set(_venv_py ${CMAKE_BINARY_DIR}/venv/bin/python3)
add_test(NAME audit.hydra_oracle
         COMMAND ${CMAKE_COMMAND} -E env NCDX=$<TARGET_FILE:ncdx> VENV_PY=${_venv_py}
                 bash ${_a}/hydra_oracle.sh ${CMAKE_SOURCE_DIR}/tests/data/audit/oracle/cases.txt
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(audit.hydra_oracle PROPERTIES LABELS "audit;oracle" SKIP_RETURN_CODE 77)

# ncdx template: a golden, and every size x engine x strategy passes ncdx audit cleanly.
audit_golden(template_7b 0 ${_a}/golden/template_7b.sh 0 template --model-size 7B --nccl-version 2.27.3 --torch-version 2.8.0)
add_test(NAME audit.template_passes_audit
         COMMAND ${CMAKE_COMMAND} -E env NCDX=$<TARGET_FILE:ncdx> bash ${_a}/template_passes_audit.sh)
audit_rc(template_bad_size 64 "model-size must be one of" template --model-size 9B)
set_tests_properties(audit.template_passes_audit PROPERTIES LABELS "audit;template")


# --from: the cluster shape from `ncdx topo --json` output (a real DGX H100 matrix, NV18 → nvswitch).
audit_golden(from_topo_json 2 ${_a}/golden/from_topo_json.txt 0 ${_common} --verl-version 0.7.1
             --from ${_d}/topo-dgxh100.json --nodes 2
             -- trainer.n_gpus_per_node=8 trainer.nnodes=2 actor_rollout_ref.rollout.tensor_model_parallel_size=16)
audit_rc(from_missing 66 "cannot open" ${_common} --from ${_d}/does-not-exist.json -- trainer.nnodes=1)

# verl's released config is the schema: the committed facts tables (src/knowledge/data/verl_*.tsv)
# re-derived from the cached wheels (oldest and newest release; the whole table is regenerated by
# `build/venv/bin/python3 scripts/verl-schema.py`), and ncdx's compose vs real Hydra on every
# release's wheel. Both skip (77) without build/venv and build/verl-wheels (scripts/py-oracles.sh).
set(_wheels ${CMAKE_BINARY_DIR}/verl-wheels)
add_test(NAME audit.verl_facts_fresh
         COMMAND bash -c "[ -x '${_venv_py}' ] || { echo 'skip: no ${_venv_py} (bash scripts/py-oracles.sh)'; exit 77; }; exec '${_venv_py}' scripts/verl-schema.py --check --offline --cache '${_wheels}' --versions 0.4.0,0.9.1"
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(audit.verl_facts_fresh PROPERTIES LABELS "audit;oracle" SKIP_RETURN_CODE 77)
add_test(NAME audit.verl_hydra_oracle
         COMMAND bash -c "[ -x '${_venv_py}' ] || { echo 'skip: no ${_venv_py} (bash scripts/py-oracles.sh)'; exit 77; }; exec '${_venv_py}' tests/audit/verl_oracle.py $<TARGET_FILE:ncdx> '${_wheels}' --sets 40 --min 99.5"
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(audit.verl_hydra_oracle PROPERTIES LABELS "audit;oracle" SKIP_RETURN_CODE 77)
# Every `ncdx template` script x release x size x strategy: composes under real Hydra with that
# release's config, passes its validate_config (0.6.0+) and `ncdx audit` (~50 s of CPU).
add_test(NAME audit.template_matrix
         COMMAND bash -c "[ -x '${_venv_py}' ] || { echo 'skip: no ${_venv_py} (bash scripts/py-oracles.sh)'; exit 77; }; exec '${_venv_py}' tests/audit/template_matrix.py $<TARGET_FILE:ncdx> '${_wheels}'"
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(audit.template_matrix PROPERTIES LABELS "audit;oracle;template" SKIP_RETURN_CODE 77 TIMEOUT 900)

# Entry points and the shell of real run scripts (#11 §2, §3): fixtures in the shapes of the
# official examples (tests/data/audit/examples), given as the positional argument.
set(_x ${_d}/examples)
audit_golden(example_arrays_model_engine 0 ${_a}/golden/example_arrays_model_engine.txt 0 ${_common} --verl-version 0.9.1
             --nodes 1 --gpus-per-node 8 ${_x}/arrays_model_engine.sh)
audit_golden(example_ray_submit_group 0 ${_a}/golden/example_ray_submit_group.txt 0 ${_common} --verl-version 0.7.1
             --nodes 2 --gpus-per-node 8 ${_x}/ray_submit_group.sh)
audit_golden(example_case_branches 0 ${_a}/golden/example_case_branches.txt 0 ${_common} --verl-version 0.7.1
             --nodes 1 --gpus-per-node 8 ${_x}/case_branches.sh)
audit_golden(example_sft_torchrun 0 ${_a}/golden/example_sft_torchrun.txt 0 ${_common} --verl-version 0.7.0
             --nodes 1 --gpus-per-node 8 ${_x}/sft_torchrun.sh)
audit_rc(example_recipe_entry 1 "'-m recipe.dapo.main_dapo' is not an entry point of verl 0.9.1" ${_common}
         --verl-version 0.9.1 ${_x}/recipe_entry.sh)
audit_rc(example_generation_gone 1 "main_generation' is not an entry point of verl 0.9.1 \\(it is one in verl 0.4.0-0.7.0"
         ${_common} --verl-version 0.9.1 ${_x}/generation.sh)
