# Install and packaging. `cmake --install BUILD --prefix P [--strip]` puts the one binary in
# P/bin; `cpack` (from BUILD) makes ncdx-<version>-Linux-x86_64.tar.gz and a .deb. The release
# preset (CMakePresets.json "release") builds with NCDX_STATIC=ON so that the binary depends on
# glibc alone and starts on the Ubuntu/RHEL/Debian images GPU nodes run.
if(NCDX_STATIC)
  enable_language(C)
  target_sources(ncdx PRIVATE ${CMAKE_SOURCE_DIR}/src/cli/glibc_floor.c)
  target_link_options(ncdx PRIVATE -static-libstdc++ -static-libgcc)
endif()
install(TARGETS ncdx RUNTIME DESTINATION bin)
install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION share/doc/ncdx)
# The man page and the bash completion are written by the binary from its own command tree
# (src/cli/completion.cc), so they are made after it links and never go stale.
set(_gen ${CMAKE_BINARY_DIR}/generated/cli)
add_custom_command(OUTPUT ${_gen}/ncdx.1 ${_gen}/ncdx.bash
                   COMMAND ${CMAKE_COMMAND} -E make_directory ${_gen}
                   COMMAND sh -c "$<TARGET_FILE:ncdx> help --man > ${_gen}/ncdx.1"
                   COMMAND sh -c "$<TARGET_FILE:ncdx> completion bash > ${_gen}/ncdx.bash"
                   DEPENDS ncdx VERBATIM)
add_custom_target(ncdx-docs-gen ALL DEPENDS ${_gen}/ncdx.1 ${_gen}/ncdx.bash)
install(FILES ${_gen}/ncdx.1 DESTINATION share/man/man1)
install(FILES ${_gen}/ncdx.bash DESTINATION share/bash-completion/completions RENAME ncdx)

set(CPACK_PACKAGE_NAME ncdx)
set(CPACK_PACKAGE_VENDOR "ncdx")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Diagnose, audit and tune NCCL collective communication of distributed GPU training")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR "TGZ;DEB")
set(CPACK_PACKAGE_FILE_NAME "ncdx-${PROJECT_VERSION}-Linux-${CMAKE_SYSTEM_PROCESSOR}")
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "ncdx developers <ncdx@localhost>")
set(CPACK_DEBIAN_PACKAGE_SECTION "utils")
# tests/release/check_binary.py holds the binary to this floor (Ubuntu 22.04 has 2.35, RHEL 9 2.34).
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6 (>= 2.34)")
include(CPack)
