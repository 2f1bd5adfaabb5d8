# The documented exit codes of the CLI on a machine without a usable GPU (docs/exit-codes.md).

include("${CMAKE_CURRENT_LIST_DIR}/require_substrings.cmake")

expect_exit(0 --version)
expect_exit(0 list)
expect_exit(2 list --filter "nosuch/*")
expect_exit(2 run --dtype f8)
expect_exit(2 list --dtype fp8)                               # two formats by that name: it names both
string(REGEX REPLACE "[ \n]+" " " flat_err "${last_err}")     # the message is wrapped to the terminal
string(FIND "${flat_err}" "FP8 is e4m3 or e5m2" pos)
if(pos EQUAL -1)
  message(FATAL_ERROR "list --dtype fp8 did not name e4m3 and e5m2:\n${last_err}")
endif()
expect_exit(0 list --dtype float8_e4m3fn)                     # PyTorch's name
expect_exit(0 list --dtype float8_e5m2)
expect_exit(2 run --no-such-option)
expect_exit(2 nosuch)
expect_exit(2 run --device "RTX 5090")                          # not an index: a usage error, GPU or not
expect_exit(2 run --device "0,0")
expect_exit(2 nosuch --help)                                  # an unknown command, not the top-level help
expect_exit(0 scan --help)
expect_exit(2 scan "${WORK_DIR}" --device "H100@5800")         # 5800 is no driver branch (580 is)
# One value per --device: the file stays a file. Exit 0 or 1 by what the build's arch list covers (the CI
# preset's is below); 2 would be the file taken as a device.
execute_process(COMMAND "${ARCHBENCH}" inspect --device 8.0 "${ARCHBENCH}" --device 8.6 RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT (rc EQUAL 0 OR rc EQUAL 1))
  message(FATAL_ERROR "inspect --device 8.0 FILE --device 8.6: exit ${rc}\nstdout:\n${out}\nstderr:\n${err}")
endif()
require_substrings("${out}" "inspect with two --device" "on 8.0 (" "on 8.6 (")
if(ARCH_LIST STREQUAL "8.0+PTX" AND NOT rc EQUAL 0)  # the CI preset covers both
  message(FATAL_ERROR "inspect --device 8.0 FILE --device 8.6: exit ${rc} with the CI preset, expected 0\n${out}")
endif()
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
file(READ "${fx}/results_h200_slower.json" slower_device_for_ids)
expect_exit(0 compare --baseline "${fx}/baseline_h200.json" "${fx}/results_h200.json")
expect_exit(1 compare --baseline "${fx}/baseline_h200.json" "${fx}/results_h200_slower.json")
expect_exit(5 compare --baseline "${fx}/baseline_a100.json" "${fx}/results_h200.json")       # foreign baseline
require_substrings("${last_err}" "foreign baseline message" "is the baseline of nvidia-a100-sxm4-80gb-cc80-80g")
expect_exit(5 compare --baseline "${CMAKE_CURRENT_LIST_FILE}" "${fx}/results_h200.json")      # corrupt baseline
expect_exit(5 compare --baseline "${fx}" "${fx}/results_h200_slower.json")                    # dir without this key
# --list-slower: the slower ids as a --filter, exit 0; --confirm: a slowdown stands only when the
# re-run is slower too (results_h200.json as the re-run: back to the baseline -> unconfirmed).
expect_exit(0 compare --baseline "${fx}/baseline_h200.json" "${fx}/results_h200_slower.json" --list-slower)
string(JSON slower_id GET "${slower_device_for_ids}" devices 0 operators 0 id)
string(STRIP "${last_out}" listed)
if(NOT listed STREQUAL slower_id)
  message(FATAL_ERROR "--list-slower printed '${listed}', expected '${slower_id}'")
endif()
expect_exit(0 compare --baseline "${fx}/baseline_h200.json" "${fx}/results_h200.json" --list-slower)
string(STRIP "${last_out}" listed)
if(NOT listed STREQUAL "")
  message(FATAL_ERROR "--list-slower of an unchanged run printed '${listed}'")
endif()
expect_exit(0 compare --baseline "${fx}/baseline_h200.json" "${fx}/results_h200_slower.json" --confirm "${fx}/results_h200.json")
require_substrings("${last_out}" "compare --confirm (a transient)"
  "unconfirmed" "0 of 1 slower operator(s) slower again" "0 regression(s) -> PASS")
expect_exit(1 compare --baseline "${fx}/baseline_h200.json" "${fx}/results_h200_slower.json" --confirm "${fx}/results_h200_slower.json")
require_substrings("${last_out}" "compare --confirm (a real slowdown)" "confirmed by the re-run")
expect_exit(5 compare --baseline "${fx}/baseline_h200.json" "${fx}/results_h200_slower.json" --confirm "${CMAKE_CURRENT_LIST_FILE}")
# A results file of two devices (run --device all): each is compared; device 1 is the slower one.
file(READ "${fx}/results_h200.json" one_device)
file(READ "${fx}/results_h200_slower.json" slower_device)
string(JSON second GET "${slower_device}" devices 0)
string(JSON second SET "${second}" device index 1)
string(JSON two_devices SET "${one_device}" devices 1 "${second}")
file(WRITE "${WORK_DIR}/two_devices.json" "${two_devices}")
expect_exit(1 compare --baseline "${fx}/baseline_h200.json" "${WORK_DIR}/two_devices.json")
require_substrings("${last_out}" "two-device compare"
  "(device 0, nvidia-h200" "(device 1, nvidia-h200" "2 devices compared: 1 regression(s) -> FAIL")
# A re-run must hold every compared device: one of device 0 only cannot confirm device 1.
expect_exit(5 compare --baseline "${fx}/baseline_h200.json" "${WORK_DIR}/two_devices.json" --confirm "${fx}/results_h200.json")
require_substrings("${last_err}" "re-run without device 1" "holds no results of device 1")
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
