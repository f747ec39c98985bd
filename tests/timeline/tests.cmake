# `ncdx timeline` end to end: real torch.profiler traces of a gloo job (skips without the PyTorch
# venv), the real HTA traces in ../shared/data/ray_timeline (schema-validated), bad input (65).
set(_tl ${CMAKE_CURRENT_LIST_DIR})
add_test(NAME timeline.gloo_straggler COMMAND bash ${_tl}/gloo_straggler.sh $<TARGET_FILE:ncdx> ${CMAKE_SOURCE_DIR})
set_tests_properties(timeline.gloo_straggler PROPERTIES LABELS "timeline;torch" SKIP_RETURN_CODE 77 TIMEOUT 420 RUN_SERIAL ON)

add_test(NAME timeline.gen_slow_link COMMAND bash ${_tl}/gen_slow_link.sh $<TARGET_FILE:ncdx> ${CMAKE_SOURCE_DIR})
set_tests_properties(timeline.gen_slow_link PROPERTIES LABELS "timeline" TIMEOUT 300)
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

# busbw and the --spec expectation (docs/TIMELINE.md "Bus bandwidth"): a real nccl-tests text run
# (B200, 2 nodes, from ../shared/data via tests/data/model/judge), ncdx's own bench JSON measured
# here (tests/data/timeline/README.md), the JSON against the schema, and bad input.
set(_tl_golden ${_tl}/golden)
set(_tl_data ${CMAKE_SOURCE_DIR}/tests/data)
set(_b200 nodes=2,gpus=8,gpu=B200,nic=8x400G-IB)
ncdx_golden(timeline nccl-tests-b200-spec 0 WORKDIR ${_tl_data} GOLDEN_DIR ${_tl_golden}
            ARGS timeline model/judge/dstack-lambda-b200-2node.txt --spec ${_b200})
ncdx_golden(timeline bench-json-no-spec 0 WORKDIR ${_tl_data} GOLDEN_DIR ${_tl_golden}
            ARGS timeline timeline/ncdx-bench-mpi-allreduce-4rank.json)
ncdx_golden(timeline nccl-tests-j-json 0 WORKDIR ${_tl_data} GOLDEN_DIR ${_tl_golden}
            ARGS timeline timeline/ncdx-bench-mpi-allgather-4rank.nccl-tests.json --spec nodes=1,gpus=4,gpu=H100)
ncdx_golden(timeline busbw_json_schema 0 JSON SCHEMA ${CMAKE_SOURCE_DIR}/docs/schema/timeline.schema.json WORKDIR ${_tl_data}
            ARGS timeline model/judge/dstack-lambda-b200-2node.txt --spec ${_b200} --json --no-timestamps)
ncdx_golden(timeline busbw_trace_json_schema 0 JSON SCHEMA ${CMAKE_SOURCE_DIR}/docs/schema/timeline.schema.json
            ARGS timeline ${_tl_shared}/hta_nccl_parser_config_nccl_data.json.gz --spec nodes=1,gpus=2,gpu=A100 --json --no-timestamps)
ncdx_golden(timeline bad_empty_bench 65 STDERR_MATCH "ncdx timeline: .*empty_bench.json: ncdx.bench/1 JSON with no result rows"
            ARGS timeline ${_tl}/bad/empty_bench.json)
ncdx_golden(timeline bad_unnamed_nccl_tests 65 STDERR_MATCH "ncdx timeline: .*does not name its collective"
            ARGS timeline ${_tl_data}/model/judge/eugene-dgxh100-4gpu.txt)
ncdx_golden(timeline bad_spec 64 STDERR_MATCH "ncdx timeline: "
            ARGS timeline ${_tl_data}/model/judge/dstack-lambda-b200-2node.txt --spec nodes=2,gpus=8,gpu=B200,nic=fast)

# Ray: a real ray.timeline() of a job with one slow worker (skips without scripts/ray-venv.sh's venv).
add_test(NAME timeline.ray_straggler COMMAND bash ${_tl}/ray_straggler.sh $<TARGET_FILE:ncdx> ${CMAKE_SOURCE_DIR})
set_tests_properties(timeline.ray_straggler PROPERTIES LABELS "timeline;slow" SKIP_RETURN_CODE 77 TIMEOUT 600 RUN_SERIAL ON)
