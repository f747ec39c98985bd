# Generated docs must match the knowledge tables they come from (docs/DEVELOPING.md).
# UPDATE_GOLDEN=1 ctest -R docs. regenerates them.
ncdx_golden(docs signatures_md_fresh 0 RAW GOLDEN ${CMAKE_SOURCE_DIR}/docs/SIGNATURES.md ARGS docs signatures)
ncdx_golden(docs env_md_fresh 0 RAW GOLDEN ${CMAKE_SOURCE_DIR}/docs/ENV.md ARGS env docs)
ncdx_golden(docs findings_md_fresh 0 RAW GOLDEN ${CMAKE_SOURCE_DIR}/docs/FINDINGS.md ARGS docs findings)
