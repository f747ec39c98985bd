# Generated docs must match the knowledge tables they come from (DESIGN.md "Knowledge is data").
# UPDATE_GOLDEN=1 ctest -R docs. regenerates them.
add_test(NAME docs.signatures_md_fresh
         COMMAND ${CMAKE_COMMAND} -DNCDX=$<TARGET_FILE:ncdx> -DARG=signatures
                 -DDOC=${CMAKE_SOURCE_DIR}/docs/SIGNATURES.md -P ${CMAKE_CURRENT_LIST_DIR}/check_generated_doc.cmake)
set_tests_properties(docs.signatures_md_fresh PROPERTIES LABELS docs)
