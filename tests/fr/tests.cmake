# Flight Recorder reader cross-checked against Python (pickle/json) as the oracle; malicious
# pickles must be refused with exit 65 and never run; truncated ones must be bad input.
find_package(Python3 COMPONENTS Interpreter)
add_executable(fr_dump_json ${CMAKE_CURRENT_LIST_DIR}/fr_dump_json.cc)
target_link_libraries(fr_dump_json PRIVATE ncdx_all_layers)
if(Python3_FOUND)
  set(_fr_data ${CMAKE_CURRENT_LIST_DIR}/../data/fr)
  set(_fr_oracle ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/oracle_compare.py $<TARGET_FILE:fr_dump_json>)
  file(GLOB _fr_good CONFIGURE_DEPENDS
       ${_fr_data}/*/nccl_trace_rank_* ${_fr_data}/protocols/*.pkl ${_fr_data}/single/*)
  foreach(f ${_fr_good})
    file(RELATIVE_PATH rel ${_fr_data} ${f})
    add_test(NAME fr_oracle/${rel} COMMAND ${_fr_oracle} ${f})
    set_tests_properties(fr_oracle/${rel} PROPERTIES LABELS fr)
  endforeach()
  set(_fr_refusals
      global_system.pkl=GLOBAL inst.pkl=INST persid.pkl=PERSID binpersid.pkl=BINPERSID
      ext1.pkl=EXT1 build.pkl=BUILD newobj.pkl=NEWOBJ obj.pkl=OBJ next_buffer.pkl=NEXT_BUFFER
      stack_global_reduce.pkl=STACK_GLOBAL fr_dump_with_reduce.pkl=GLOBAL)
  foreach(pair ${_fr_refusals})
    string(REPLACE "=" ";" kv ${pair})
    list(GET kv 0 name)
    list(GET kv 1 op)
    add_test(NAME fr_refuse/${name} COMMAND ${_fr_oracle} ${_fr_data}/malicious/${name} --refuse ${op})
    set_tests_properties(fr_refuse/${name} PROPERTIES LABELS fr RUN_SERIAL ON)
  endforeach()
  file(GLOB _fr_trunc CONFIGURE_DEPENDS ${_fr_data}/truncated/*)
  foreach(f ${_fr_trunc})
    get_filename_component(name ${f} NAME)
    add_test(NAME fr_bad/${name} COMMAND ${_fr_oracle} ${f} --bad)
    set_tests_properties(fr_bad/${name} PROPERTIES LABELS fr)
  endforeach()
endif()
