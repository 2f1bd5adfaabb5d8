# Commands give advice, not lab notes: what was measured on which machine belongs in docs/
# (validation.md), not in program output. Without a GPU: baseline update's advice for a small
# baseline, and the doctor's warning for CUDA_FORCE_PTX_JIT.
# Inputs: -DARCHBENCH=<exe> -DFIXTURES=<suites/fixtures> -DWORK_DIR=<dir>
include("${CMAKE_CURRENT_LIST_DIR}/require_substrings.cmake")
function(forbid_substrings text label)
  foreach(needle ${ARGN})
    string(FIND "${text}" "${needle}" pos)
    if(NOT pos EQUAL -1)
      message(FATAL_ERROR "${label} holds a lab note ('${needle}'):\n${text}")
    endif()
  endforeach()
endfunction()
set(lab_notes "H200" "on the H200" "later runs" "hosts" "2026-")

set(tmp "${WORK_DIR}/no_lab_notes")
file(REMOVE_RECURSE "${tmp}")
file(MAKE_DIRECTORY "${tmp}")
execute_process(COMMAND "${ARCHBENCH}" baseline update --from "${FIXTURES}/results_h200.json" --dir "${tmp}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "baseline update: exit ${rc}\n${out}\n${err}")
endif()
string(REGEX REPLACE "^wrote [^\n]*\n" "" advice "${out}")  # the device key names the H200; the note must not
require_substrings("${advice}" "baseline update of one run" "note: 1 run(s) may not show" "pool 8+ for a gate"
                   "docs/baselines-and-ci-gate.md")
forbid_substrings("${advice}" "baseline update of one run" ${lab_notes})
file(REMOVE_RECURSE "${tmp}")

execute_process(COMMAND "${CMAKE_COMMAND}" -E env CUDA_FORCE_PTX_JIT=1 "${ARCHBENCH}" doctor --filter "matmul/gemm_simt/*"
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REGEX REPLACE "\n +" " " out "${out}")
require_substrings("${out}" "doctor with CUDA_FORCE_PTX_JIT=1" "[env:CUDA_FORCE_PTX_JIT]" "handle creation")
string(REGEX MATCH "WARN  \\[env:CUDA_FORCE_PTX_JIT\\][^\n]*" finding "${out}")
forbid_substrings("${finding}" "the doctor's CUDA_FORCE_PTX_JIT warning" ${lab_notes})
