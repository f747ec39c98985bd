# NCDX_WITH_MPI (docs/CLUSTER.md): AUTO builds MPI support when an MPI with a C binding
# is found, ON requires it, OFF builds without. Defines NCDX_MPI_LIBS (empty without MPI) for the
# layers that talk MPI (cluster: `doctor --cluster`; measure: bench/tune --backend mpi); each adds
# NCDX_WITH_MPI=1 to its own sources. Included by both; found once.
if(DEFINED NCDX_MPI_CONFIGURED)
  return()
endif()
set(NCDX_MPI_CONFIGURED ON)
set(NCDX_WITH_MPI AUTO CACHE STRING "MPI support (doctor --cluster, bench/tune --backend mpi): AUTO, ON, OFF")
set(NCDX_MPI_LIBS)
if(NCDX_STATIC AND NCDX_WITH_MPI STREQUAL "AUTO")
  # A static release binary cannot carry libmpi (Debian ships no libmpi.a): single-node there.
  message(STATUS "ncdx: NCDX_STATIC, so no MPI (cluster mode and the MPI backend need the dynamic build)")
elseif(NOT NCDX_WITH_MPI STREQUAL "OFF")
  find_package(MPI COMPONENTS C QUIET)
  if(MPI_C_FOUND)
    set(NCDX_MPI_LIBS MPI::MPI_C)
    message(STATUS "ncdx: MPI ${MPI_C_VERSION} (${MPI_C_LIB_NAMES})")
  elseif(NCDX_WITH_MPI STREQUAL "ON")
    message(FATAL_ERROR "NCDX_WITH_MPI=ON but no MPI found (apt-get install libopenmpi-dev)")
  else()
    message(STATUS "ncdx: no MPI found: `doctor --cluster` and `--backend mpi` exit 64")
  endif()
endif()
