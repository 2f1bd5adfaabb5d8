# The CLI cmake -P tests' helpers. require_substrings(TEXT LABEL NEEDLE...): every NEEDLE occurs in TEXT, else the script fails
# naming LABEL, the missing NEEDLE and the whole TEXT. Shared by the CLI's cmake -P tests.
function(require_substrings text label)
  foreach(needle ${ARGN})
    string(FIND "${text}" "${needle}" pos)
    if(pos EQUAL -1)
      message(FATAL_ERROR "${label} lacks '${needle}':\n${text}")
    endif()
  endforeach()
endfunction()

# expect_exit(CODE ARG...): runs ${ARCHBENCH} ARG... and fails the script unless it exits CODE;
# leaves its stdout and stderr in last_out and last_err.
function(expect_exit code)
  execute_process(COMMAND "${ARCHBENCH}" ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL code)
    message(FATAL_ERROR "archbench ${ARGN}: exit ${rc}, expected ${code}\nstdout:\n${out}\nstderr:\n${err}")
  endif()
  set(last_out "${out}" PARENT_SCOPE)
  set(last_err "${err}" PARENT_SCOPE)
endfunction()
