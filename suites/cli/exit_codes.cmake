# The documented exit codes of the CLI on a machine without a usable GPU (README "Exit codes").
function(expect_exit code)
  execute_process(COMMAND "${ARCHBENCH}" ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL code)
    message(FATAL_ERROR "archbench ${ARGN}: exit ${rc}, expected ${code}\nstdout:\n${out}\nstderr:\n${err}")
  endif()
  set(last_out "${out}" PARENT_SCOPE)
  set(last_err "${err}" PARENT_SCOPE)
endfunction()

expect_exit(0 --version)
expect_exit(0 list)
expect_exit(2 list --filter "nosuch/*")
expect_exit(2 run --dtype f8)
expect_exit(2 run --no-such-option)
expect_exit(2 run --filter "nosuch/*")
expect_exit(2 run --cuda-graph bogus)                         # off | auto | all
string(FIND "${last_err}" "--cuda-graph" pos)
if(pos EQUAL -1)
  message(FATAL_ERROR "run --cuda-graph bogus did not name the option:\n${last_err}")
endif()
expect_exit(2 run --cuda-graph)                               # the value is required
expect_exit(2 run --cuda-graph auto --filter "nosuch/*")      # accepted; the filter is what fails
string(FIND "${last_err}" "no operator matches" pos)
if(pos EQUAL -1)
  message(FATAL_ERROR "run --cuda-graph auto was not accepted:\n${last_err}")
endif()

# inspect: archbench's own executable (built for ARCH_LIST by this build).
expect_exit(0 inspect "${ARCHBENCH}")
expect_exit(5 inspect "${CMAKE_CURRENT_LIST_FILE}")           # not ELF, not a fatbin
expect_exit(5 inspect "/nonexistent/file.so")
expect_exit(2 inspect "${ARCHBENCH}" --device "Voodoo 5")
expect_exit(2 inspect "${ARCHBENCH}" --fleet "/nonexistent/fleet.json")
if(ARCH_LIST STREQUAL "8.0+PTX")  # the CI preset: SASS sm_80 + PTX compute_80
  expect_exit(0 inspect "${ARCHBENCH}" --device 8.6)           # sm_80 SASS runs on 8.6
  string(FIND "${last_out}" "8.6: " pos)
  expect_exit(0 inspect "${ARCHBENCH}" --device "RTX 5090")    # JIT from compute_80
  string(FIND "${last_out}" "run only through PTX JIT" pos)
  if(pos EQUAL -1)
    message(FATAL_ERROR "inspect --device 'RTX 5090' did not report PTX JIT:\n${last_out}")
  endif()
  expect_exit(1 inspect "${ARCHBENCH}" --device 7.5)           # nothing for 7.5
  string(FIND "${last_out}" "every launch fails with 'no kernel image'" pos)
  if(pos EQUAL -1)
    message(FATAL_ERROR "inspect --device 7.5 did not say every launch fails:\n${last_out}")
  endif()
  expect_exit(1 inspect "${ARCHBENCH}" --device 9.0@12080)     # CUDA 13's PTX ISA 9.0 on a 12.8 driver
  string(FIND "${last_out}" "PTX too new" pos)
  if(pos EQUAL -1)
    message(FATAL_ERROR "inspect --device 9.0@12080 did not flag PTX too new:\n${last_out}")
  endif()
endif()

# baselines and compare (fixtures: one H200 operator; an A100 baseline; the same run 50% slower)
set(fx "${FIXTURES}")
expect_exit(0 compare --baseline "${fx}/baseline_h200.json" "${fx}/results_h200.json")
expect_exit(1 compare --baseline "${fx}/baseline_h200.json" "${fx}/results_h200_slower.json")
expect_exit(5 compare --baseline "${fx}/baseline_a100.json" "${fx}/results_h200.json")       # foreign baseline
string(FIND "${last_err}" "is the baseline of nvidia-a100-sxm4-80gb-cc80-80g" pos)
if(pos EQUAL -1)
  message(FATAL_ERROR "foreign baseline message:\n${last_err}")
endif()
expect_exit(5 compare --baseline "${CMAKE_CURRENT_LIST_FILE}" "${fx}/results_h200.json")      # corrupt baseline
expect_exit(5 compare --baseline "${fx}" "${fx}/results_h200_slower.json")                    # dir without this key
# A results file of two devices (run --device all): each is compared; device 1 is the slower one.
file(READ "${fx}/results_h200.json" one_device)
file(READ "${fx}/results_h200_slower.json" slower_device)
string(JSON second GET "${slower_device}" devices 0)
string(JSON second SET "${second}" device index 1)
string(JSON two_devices SET "${one_device}" devices 1 "${second}")
file(WRITE "${WORK_DIR}/two_devices.json" "${two_devices}")
expect_exit(1 compare --baseline "${fx}/baseline_h200.json" "${WORK_DIR}/two_devices.json")
foreach(expected "(device 0, nvidia-h200" "(device 1, nvidia-h200" "2 devices compared: 1 regression(s) -> FAIL")
  string(FIND "${last_out}" "${expected}" pos)
  if(pos EQUAL -1)
    message(FATAL_ERROR "two-device compare lacks '${expected}':\n${last_out}")
  endif()
endforeach()
set(tmp "${WORK_DIR}/baseline_update")
file(REMOVE_RECURSE "${tmp}")
file(MAKE_DIRECTORY "${tmp}")
file(COPY "${fx}/baseline_a100.json" DESTINATION "${tmp}")
expect_exit(5 baseline update --from "${fx}/results_h200.json" --out "${tmp}/baseline_a100.json")  # refuses
expect_exit(0 baseline update --from "${fx}/results_h200.json" --from "${fx}/results_h200.json" --dir "${tmp}")
expect_exit(0 compare --baseline "${tmp}" "${fx}/results_h200.json")
file(REMOVE_RECURSE "${tmp}")

# run: on a machine with a GPU this is a real run; without one (CI) it must exit 3 and name
# the driver error, after printing the build manifest.
execute_process(COMMAND nvidia-smi -L RESULT_VARIABLE has_gpu OUTPUT_QUIET ERROR_QUIET)
if(NOT has_gpu EQUAL 0)
  expect_exit(3 run --filter "matmul/gemm_simt/*")
  foreach(expected "no usable CUDA device" "cudaError")
    string(FIND "${last_err}" "${expected}" pos)
    if(pos EQUAL -1)
      message(FATAL_ERROR "no-device message lacks '${expected}':\n${last_err}")
    endif()
  endforeach()
  string(FIND "${last_out}" "SASS:" pos)
  if(pos EQUAL -1)
    message(FATAL_ERROR "no-device run did not print the build manifest:\n${last_out}")
  endif()
endif()
