# Runs one `ncdx topo` golden case (cmake -P): compares stdout and the exit code with the golden
# file; UPDATE_GOLDEN=1 in the environment rewrites the golden instead. For --json output the
# "context" block (host, version, env) is removed first and, when SCHEMA is given, the output is
# validated against it with python3-jsonschema.
# Variables: NCDX, ARGS (list), GOLDEN, EXPECT_EXIT, JSON (ON/OFF), SCHEMA, STDIN_FILE, WORKDIR,
# NOSTDERR (ON: stderr depends on the machine, leave it out).
set(ENV{LC_ALL} C)
set(ENV{NO_COLOR} 1)
set(input_args)
if(STDIN_FILE)
  set(input_args INPUT_FILE ${STDIN_FILE})
endif()
execute_process(COMMAND ${NCDX} ${ARGS} --no-timestamps --no-color
                WORKING_DIRECTORY ${WORKDIR}
                ${input_args}
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc STREQUAL EXPECT_EXIT)
  message(FATAL_ERROR "exit code ${rc}, expected ${EXPECT_EXIT}\nstderr: ${err}\nstdout: ${out}")
endif()
if(JSON)
  file(WRITE ${GOLDEN}.actual.json "${out}")
  if(SCHEMA)
    execute_process(COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/validate_schema.py ${SCHEMA} ${GOLDEN}.actual.json
                    RESULT_VARIABLE vrc OUTPUT_VARIABLE vout ERROR_VARIABLE verr)
    if(NOT vrc EQUAL 0)
      message(FATAL_ERROR "schema validation failed: ${vout}${verr}")
    endif()
  endif()
  file(REMOVE ${GOLDEN}.actual.json)
  string(JSON out REMOVE "${out}" context)
  string(APPEND out "\n")
endif()
set(actual "exit ${rc}\n${out}")
if(NOT NOSTDERR AND NOT err STREQUAL "")
  string(APPEND actual "--- stderr\n${err}")
endif()
if(DEFINED ENV{UPDATE_GOLDEN} AND "$ENV{UPDATE_GOLDEN}" STREQUAL "1")
  file(WRITE ${GOLDEN} "${actual}")
  return()
endif()
if(NOT EXISTS ${GOLDEN})
  message(FATAL_ERROR "missing golden ${GOLDEN} (run with UPDATE_GOLDEN=1)")
endif()
file(READ ${GOLDEN} expected)
if(NOT actual STREQUAL expected)
  file(WRITE ${GOLDEN}.actual "${actual}")
  message(FATAL_ERROR "output differs from ${GOLDEN}; see ${GOLDEN}.actual (diff it, or UPDATE_GOLDEN=1)")
endif()
