# A gate must never pass without checking something (issue #16): every command that takes
# --filter treats "matches nothing" as a usage error with a suggestion, selection that narrows a
# check is said in its summary, one filter language everywhere, and a file without device code
# is not a pass for a device. Runs without a GPU.
# Inputs: -DARCHBENCH=<exe> -DFIXTURES=<suites/fixtures> -DWORK_DIR=<dir> -DHOST_ONLY=<an ELF without device code>
include("${CMAKE_CURRENT_LIST_DIR}/require_substrings.cmake")
set(fx "${FIXTURES}")

# A filter that matches nothing: exit 2, a suggestion, where to see the names; every command.
foreach(cmd list run doctor)
  expect_exit(2 ${cmd} --filter "matmul/gemm_tcc/*")
  require_substrings("${last_err}" "${cmd} with a misspelt filter" "no operator matches" "did you mean --filter 'matmul/gemm_tc/*'" "archbench list")
  expect_exit(2 ${cmd} --filter "gemm_tc")
  require_substrings("${last_err}" "${cmd} with a bare word" "did you mean --filter '*gemm_tc*'")
endforeach()
expect_exit(2 compare --baseline "${fx}/baseline_h200.json" "${fx}/results_h200.json" --filter "matmul/gemm_tcc/*")
require_substrings("${last_err}" "compare with a misspelt filter" "matches --filter 'matmul/gemm_tcc/*'" "did you mean --filter 'matmul/gemm_tc/*'")
expect_exit(2 compare --baseline "${fx}/baseline_h200.json" "${fx}/results_h200.json" --filter "gemm_tc")
require_substrings("${last_err}" "compare with a bare word" "did you mean --filter '*gemm_tc*'")
expect_exit(2 inspect "${ARCHBENCH}" --filter "*gemmm*" --device 9.0)
require_substrings("${last_err}" "inspect with a misspelt filter" "no kernel matches" "did you mean --filter '*gemm*'" "--kernels")

# A filter that matches: the summary says what was compared and what was left out.
expect_exit(0 compare --baseline "${fx}/baseline_h200.json" "${fx}/results_h200.json" --filter "matmul/*")
require_substrings("${last_out}" "compare --filter summary" "selection: --filter 'matmul/*' kept 1 of the baseline's 1")

# One filter language: inspect takes comma-separated globs like run (it used to take one fnmatch).
expect_exit(0 inspect "${ARCHBENCH}" --filter "*gemm*,*conv*")
require_substrings("${last_out}" "inspect with two globs" "match --filter '*gemm*,*conv*'" "are not judged")
string(REGEX MATCH "kernels: ([0-9,]+) of" matched "${last_out}")
if(CMAKE_MATCH_1 STREQUAL "" OR CMAKE_MATCH_1 STREQUAL "0")
  message(FATAL_ERROR "inspect --filter '*gemm*,*conv*' kept no kernel:\n${last_out}")
endif()

# A file without device code is not a pass for a device.
expect_exit(1 inspect "${HOST_ONLY}" --device 9.0)
require_substrings("${last_out}" "inspect of a host-only file" "no device code in this file" "not judged for any device")
string(FIND "${last_out}" "every kernel loads" pos)
if(NOT pos EQUAL -1)
  message(FATAL_ERROR "inspect of a host-only file said every kernel loads:\n${last_out}")
endif()
expect_exit(0 inspect "${HOST_ONLY}")  # no device asked: a listing, nothing judged
require_substrings("${last_out}" "inspect of a host-only file without --device" "no device code in this file")

# One run given twice is pooled once.
set(tmp "${WORK_DIR}/silent_passes")
file(REMOVE_RECURSE "${tmp}")
file(MAKE_DIRECTORY "${tmp}")
file(COPY "${fx}/results_h200.json" DESTINATION "${tmp}")
file(RENAME "${tmp}/results_h200.json" "${tmp}/copy.json")
expect_exit(0 baseline update --from "${fx}/results_h200.json" --from "${fx}/results_h200.json" --from "${tmp}/copy.json" --dir "${tmp}")
require_substrings("${last_out}" "baseline update with one run three times" "1 run(s) pooled")
require_substrings("${last_err}" "baseline update with one run three times" "holds the same run as" "counted once")
file(REMOVE_RECURSE "${tmp}")
