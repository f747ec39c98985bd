# Golden tests of `ncdx triage` (text, JSON validated against docs/schema/triage.schema.json) and
# its exit codes on good and bad input. Runner: tests/golden.cmake.
set(triage_data ${CMAKE_CURRENT_LIST_DIR}/../data/triage)
set(triage_golden ${CMAKE_CURRENT_LIST_DIR}/golden)
set(triage_schema ${CMAKE_SOURCE_DIR}/docs/schema/triage.schema.json)

function(ncdx_triage_golden name expect)
  ncdx_golden(triage ${name} ${expect} WORKDIR ${triage_data} GOLDEN_DIR ${triage_golden} SCHEMA ${triage_schema} ${ARGN})
endfunction()

foreach(s ib-host-culprit oom-killed-rank missing-collective version-skew shm-container)
  ncdx_triage_golden(${s} 2 ARGS triage scenarios/${s})
endforeach()
ncdx_triage_golden(socket-fallback-ib 1 ARGS triage scenarios/socket-fallback-ib)  # a warning: exit 1
# On an 80-column terminal (#13): the verdict, evidence and fixes wrap under their labels.
ncdx_triage_golden(ib-host-culprit.80cols 2 ENV GOLDEN_COLUMNS=80 ARGS triage scenarios/ib-host-culprit)
ncdx_triage_golden(json-ib-host-culprit 2 JSON ARGS triage --json scenarios/ib-host-culprit)
ncdx_triage_golden(json-missing-collective 2 JSON ARGS triage --json scenarios/missing-collective)
ncdx_triage_golden(example-default 2 ARGS triage --example)
ncdx_triage_golden(stdin 2 STDIN ${triage_data}/scenarios/shm-container/rank1.log ARGS triage -)
ncdx_triage_golden(expect-timeout 2 ARGS triage --expect-timeout 1800 scenarios/missing-collective)
ncdx_triage_golden(glob 2 ARGS triage scenarios/oom-killed-rank/rank5.log scenarios/oom-killed-rank/rank[0-2].log)
ncdx_triage_golden(gz-and-zst 2 ARGS triage compressed)
# Bad input: usage 64, nothing found 66, only corrupt archives 65, binary junk → no verdict (0).
ncdx_triage_golden(no-input 64 ARGS triage)
ncdx_triage_golden(missing-file 66 ARGS triage does-not-exist.log)
ncdx_triage_golden(corrupt-gz 65 ARGS triage bad/truncated.log.gz)
ncdx_triage_golden(binary-file 0 ARGS triage bad/binary.bin)
ncdx_triage_golden(unknown-example 66 ARGS triage --example no-such-incident)
# Flight Recorder dumps: given with --fr, or found among the inputs (nccl_trace_rank_*); a pickle
# that would run code is refused (65), never executed.
ncdx_triage_golden(fr-hang-rank2 2 ARGS triage --fr ../fr/hang_rank2)
ncdx_triage_golden(fr-autodetect-with-logs 2 JSON ARGS triage --json ../fr/hang_rank2 scenarios/missing-collective)
ncdx_triage_golden(fr-malicious 65 ARGS triage --fr ../fr/malicious/build.pkl)
# --follow on files that do not grow: one alert per failure signature as it is read (observations
# such as "NET/IB : No device found" are not alerted), then the final verdict after --idle.
ncdx_triage_golden(follow-idle 2 ARGS triage --follow --idle 1 follow/rank0.log)
# A report pasted with Windows line ends, ANSI-coloured Ray prefixes and kubectl timestamps, on stdin.
ncdx_triage_golden(stdin-pasted-crlf 2 JSON STDIN ${triage_data}/pasted/kubectl-ray-crlf.log ARGS triage --json -)
