# require_substrings(TEXT LABEL NEEDLE...): every NEEDLE occurs in TEXT, else the script fails
# naming LABEL, the missing NEEDLE and the whole TEXT. Shared by the CLI's cmake -P tests.
function(require_substrings text label)
  foreach(needle ${ARGN})
    string(FIND "${text}" "${needle}" pos)
    if(pos EQUAL -1)
      message(FATAL_ERROR "${label} lacks '${needle}':\n${text}")
    endif()
  endforeach()
endfunction()
