# `ncdx timeline` end to end: real torch.profiler traces of a gloo job (skips without the PyTorch
# venv), the real HTA traces in ../shared/data/ray_timeline (schema-validated), bad input (65).
set(_tl ${CMAKE_CURRENT_LIST_DIR})
add_test(NAME timeline.gloo_straggler COMMAND bash ${_tl}/gloo_straggler.sh $<TARGET_FILE:ncdx> ${CMAKE_SOURCE_DIR})
set_tests_properties(timeline.gloo_straggler PROPERTIES LABELS "timeline;torch" SKIP_RETURN_CODE 77 TIMEOUT 420 RUN_SERIAL ON)

set(_tl_shared ${CMAKE_SOURCE_DIR}/../shared/data/ray_timeline)
foreach(f hta_nccl_parser_config_nccl_data.json.gz hta_timeline_analysis_sampled_rank-0.json.gz)
  ncdx_golden(timeline ${f} 0 JSON SCHEMA ${CMAKE_SOURCE_DIR}/docs/schema/timeline.schema.json
              ARGS timeline ${_tl_shared}/${f} --json --no-timestamps)
endforeach()
foreach(bad truncated wrong_types not_a_trace)
  ncdx_golden(timeline bad_${bad} 65 STDERR_MATCH "ncdx timeline: .*${bad}"
              ARGS timeline ${_tl}/bad/${bad}.json)
endforeach()
ncdx_golden(timeline missing 66 ARGS timeline ${_tl}/bad/does_not_exist.json)
ncdx_golden(timeline bad_option 64 ARGS timeline ${_tl}/bad/truncated.json --bucket fast)
