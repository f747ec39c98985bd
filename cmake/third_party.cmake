# Third-party libraries, found once. Layers link the ncdx_tp_* names, never the packages' own
# targets, so that one switch decides how they are linked:
#   NCDX_STATIC=OFF (development): Debian's shared libraries.
#   NCDX_STATIC=ON  (release, cmake/release.cmake): their static archives, fmt header-only, and
#   libstdc++/libgcc static, so the binary needs nothing but glibc (tests/release checks it).
find_package(PkgConfig REQUIRED)
find_package(fmt REQUIRED)
find_package(nlohmann_json REQUIRED)
find_package(yaml-cpp REQUIRED)
find_package(CLI11 REQUIRED)
find_package(Threads REQUIRED)
pkg_check_modules(RE2 REQUIRED IMPORTED_TARGET re2)
pkg_check_modules(ZLIB REQUIRED IMPORTED_TARGET zlib)
pkg_check_modules(ZSTD REQUIRED IMPORTED_TARGET libzstd)

foreach(t fmt re2 zlib zstd yaml)
  add_library(ncdx_tp_${t} INTERFACE)
endforeach()

if(NCDX_STATIC)
  # Debian ships no libfmt.a: fmt's header-only mode compiles it into the binary instead.
  target_link_libraries(ncdx_tp_fmt INTERFACE fmt::fmt-header-only)
  add_compile_definitions(FMT_HEADER_ONLY=1)  # every layer, not only those that link fmt
  foreach(pair "re2;re2" "zlib;z" "zstd;zstd" "yaml;yaml-cpp")
    list(GET pair 0 t)
    list(GET pair 1 lib)
    find_library(NCDX_STATIC_${t} NAMES lib${lib}.a REQUIRED)
    target_link_libraries(ncdx_tp_${t} INTERFACE ${NCDX_STATIC_${t}})
  endforeach()
  target_include_directories(ncdx_tp_re2 INTERFACE ${RE2_INCLUDE_DIRS})
  target_link_libraries(ncdx_tp_re2 INTERFACE Threads::Threads)
else()
  target_link_libraries(ncdx_tp_fmt INTERFACE fmt::fmt)
  target_link_libraries(ncdx_tp_re2 INTERFACE PkgConfig::RE2)
  target_link_libraries(ncdx_tp_zlib INTERFACE PkgConfig::ZLIB)
  target_link_libraries(ncdx_tp_zstd INTERFACE PkgConfig::ZSTD)
  target_link_libraries(ncdx_tp_yaml INTERFACE yaml-cpp)
endif()
