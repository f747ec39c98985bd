# The include graph obeys the layer order of docs/DEVELOPING.md (tests/layers/check_layers.py says how).
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  add_test(NAME layers COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/layers/check_layers.py ${CMAKE_SOURCE_DIR})
  set_tests_properties(layers PROPERTIES LABELS "layers")
endif()
