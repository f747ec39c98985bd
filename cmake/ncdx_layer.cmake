# ncdx_layer(<name> [DEPS layer...] [LIBS target...])
# Builds library ncdx_<name> from every .cc under the current directory, feature folders included
# (so adding a file needs no CMake edit). Headers are reached as "<name>/file.h" through a private include root that holds
# only this layer's link: a layer that includes a header of a layer it does not depend on fails
# to build, which is how docs/DEVELOPING.md's layer order (dependencies point down) is enforced.
function(ncdx_layer name)
  cmake_parse_arguments(L "" "" "DEPS;LIBS;SOURCES" ${ARGN})
  file(GLOB_RECURSE srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cc)
  list(FILTER srcs EXCLUDE REGEX "/main\\.cc$")  # a program's main is not part of its layer
  list(APPEND srcs ${L_SOURCES})
  set(inc ${CMAKE_BINARY_DIR}/include-roots/${name})
  file(MAKE_DIRECTORY ${inc})
  if(NOT EXISTS ${inc}/${name})
    file(CREATE_LINK ${CMAKE_CURRENT_SOURCE_DIR} ${inc}/${name} SYMBOLIC)
  endif()
  # The layer's own include root is public (its users see its headers); its dependencies are
  # private (a user does not see them through it: it declares what it includes itself, which
  # tests/layers/check_layers.py checks). Static libraries still pass private links on to the link.
  if(srcs)
    set(own PUBLIC)
    set(dep PRIVATE)
    add_library(ncdx_${name} STATIC ${srcs})
    if(NCDX_PCH)
      if(name STREQUAL "core")  # the first layer: the others reuse its precompiled header
        target_precompile_headers(ncdx_core PRIVATE <nlohmann/json.hpp> <fmt/format.h> <map> <optional> <string> <vector>)
      else()
        target_precompile_headers(ncdx_${name} REUSE_FROM ncdx_core)
        # A precompiled header is used only with the definitions it was built with (FMT_SHARED).
        target_link_libraries(ncdx_${name} PRIVATE ncdx_tp_fmt)
      endif()
    endif()
  else()
    set(own INTERFACE)  # a layer with headers only (or not written yet)
    set(dep INTERFACE)
    add_library(ncdx_${name} INTERFACE)
  endif()
  target_include_directories(ncdx_${name} ${own} ${inc})
  foreach(d ${L_DEPS})
    target_link_libraries(ncdx_${name} ${dep} ncdx_${d})
  endforeach()
  target_link_libraries(ncdx_${name} ${dep} ${L_LIBS})
endfunction()
