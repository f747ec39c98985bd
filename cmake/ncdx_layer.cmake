# ncdx_layer(<name> [DEPS layer...] [LIBS target...])
# Builds library ncdx_<name> from every .cc in the current directory (so adding a file needs no
# CMake edit). Headers are reached as "<name>/file.h" through a private include root that holds
# only this layer's link: a layer that includes a header of a layer it does not depend on fails
# to build, which is how DESIGN.md's "dependencies point down" is enforced.
function(ncdx_layer name)
  cmake_parse_arguments(L "" "" "DEPS;LIBS;SOURCES" ${ARGN})
  file(GLOB srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cc)
  list(FILTER srcs EXCLUDE REGEX "/main\\.cc$")  # a program's main is not part of its layer
  list(APPEND srcs ${L_SOURCES})
  set(inc ${CMAKE_BINARY_DIR}/include-roots/${name})
  file(MAKE_DIRECTORY ${inc})
  if(NOT EXISTS ${inc}/${name})
    file(CREATE_LINK ${CMAKE_CURRENT_SOURCE_DIR} ${inc}/${name} SYMBOLIC)
  endif()
  if(srcs)
    set(scope PUBLIC)
    add_library(ncdx_${name} STATIC ${srcs})
  else()
    set(scope INTERFACE)  # a layer with headers only (or not written yet)
    add_library(ncdx_${name} INTERFACE)
  endif()
  target_include_directories(ncdx_${name} ${scope} ${inc})
  foreach(d ${L_DEPS})
    target_link_libraries(ncdx_${name} ${scope} ncdx_${d})
  endforeach()
  target_link_libraries(ncdx_${name} ${scope} ${L_LIBS})
endfunction()
