# Adversarial suite (issue #12): hostile inputs against every reader and writer, one CTest per
# attack (tests/adversarial/attacks.py --list). Each runs the real binary on inputs it builds in
# its own temporary directory and removes it, also on failure. Whole suite: well under 2 minutes.
find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND)
  set(_adv ${CMAKE_CURRENT_LIST_DIR}/attacks.py)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_adv})
  execute_process(COMMAND ${Python3_EXECUTABLE} ${_adv} --list OUTPUT_VARIABLE _adv_list RESULT_VARIABLE _adv_rc)
  if(NOT _adv_rc EQUAL 0)
    message(FATAL_ERROR "tests/adversarial/attacks.py --list failed")
  endif()
  string(REPLACE "\n" ";" _adv_lines "${_adv_list}")
  foreach(line ${_adv_lines})
    if(line STREQUAL "")
      continue()
    endif()
    string(REPLACE "\t" ";" parts "${line}")
    list(GET parts 0 kind)
    list(GET parts 1 name)
    add_test(NAME adversarial.${kind}.${name}
             COMMAND ${Python3_EXECUTABLE} ${_adv} --ncdx $<TARGET_FILE:ncdx> --data ${CMAKE_SOURCE_DIR}/tests/data ${name})
    set_tests_properties(adversarial.${kind}.${name} PROPERTIES LABELS "adversarial;${kind}" SKIP_RETURN_CODE 77 TIMEOUT 120)
  endforeach()
endif()
