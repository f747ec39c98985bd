# Runs one ncdx golden case (cmake -P): checks the exit code, optionally matches stderr against a
# regex, and compares "exit N", stdout (and stderr unless NOSTDERR) with the golden file;
# UPDATE_GOLDEN=1 in the environment rewrites the golden instead. When SCHEMA is given and stdout is
# a JSON document, it is validated against it with python3-jsonschema; with JSON its "context"
# block (host, version, env: machine-specific) is removed before the comparison.
# Variables: NCDX, ARGS (list), EXPECT_EXIT, WORKDIR, GOLDEN (empty: exit code and STDERR_MATCH
# only), JSON (ON/OFF), SCHEMA, STDIN_FILE, NOSTDERR (ON: stderr depends on the machine),
# STDERR_MATCH (regex), REPLACE_FROM/REPLACE_TO (a machine-specific path shown in the output),
# RAW (ON: the golden is stdout exactly, e.g. a generated doc checked in under docs/).
set(ENV{LC_ALL} C)
set(ENV{NO_COLOR} 1)
# Text fits $COLUMNS (core::output_columns): a golden is at full width unless its test sets
# GOLDEN_COLUMNS (ENV GOLDEN_COLUMNS=80), whatever the shell that runs ctest exports.
if(DEFINED ENV{GOLDEN_COLUMNS})
  set(ENV{COLUMNS} $ENV{GOLDEN_COLUMNS})
else()
  unset(ENV{COLUMNS})
endif()
set(input_args)
if(STDIN_FILE)
  set(input_args INPUT_FILE ${STDIN_FILE})
endif()
# Global flags go first: audit's ARGS may end with "-- overrides...".
execute_process(COMMAND ${NCDX} --no-timestamps --no-color ${ARGS}
                WORKING_DIRECTORY ${WORKDIR}
                ${input_args}
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc STREQUAL EXPECT_EXIT)
  message(FATAL_ERROR "exit code ${rc}, expected ${EXPECT_EXIT}\nstderr: ${err}\nstdout: ${out}")
endif()
if(STDERR_MATCH AND NOT err MATCHES "${STDERR_MATCH}")
  message(FATAL_ERROR "stderr does not match '${STDERR_MATCH}':\n${err}")
endif()
if(SCHEMA AND out MATCHES "^[ \t\r\n]*{")
  string(RANDOM LENGTH 8 tag)
  set(doc ${CMAKE_CURRENT_BINARY_DIR}/schema_check_${tag}.json)
  file(WRITE ${doc} "${out}")
  execute_process(COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/validate_schema.py ${SCHEMA} ${doc}
                  RESULT_VARIABLE vrc OUTPUT_VARIABLE vout ERROR_VARIABLE verr)
  file(REMOVE ${doc})
  if(NOT vrc EQUAL 0)
    message(FATAL_ERROR "schema validation against ${SCHEMA} failed: ${vout}${verr}")
  endif()
endif()
if(NOT GOLDEN)
  return()
endif()
if(JSON)
  string(JSON out REMOVE "${out}" context)
  string(APPEND out "\n")
endif()
if(REPLACE_FROM)
  string(REPLACE "${REPLACE_FROM}" "${REPLACE_TO}" out "${out}")
  string(REPLACE "${REPLACE_FROM}" "${REPLACE_TO}" err "${err}")
endif()
set(actual "exit ${rc}\n${out}")
if(RAW)
  set(actual "${out}")
elseif(NOT NOSTDERR AND NOT err STREQUAL "")
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
