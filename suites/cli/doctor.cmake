cmake_minimum_required(VERSION 3.25)  # if(IN_LIST), string(JSON)
# archbench doctor from the outside: each cause reproducible on any machine is provoked and the
# doctor's finding, fix and exit code checked. Without a driver (CI) the doctor must explain the
# missing driver and exit 3; with a GPU the same findings appear next to a real workload (kept to
# a few operators here), and an impossible CUDA_VISIBLE_DEVICES still ends in exit 3.
#   -DARCHBENCH=<exe> -DWORK_DIR=<dir> -DCXX=<host compiler>
set(small_workload --filter "matmul/gemm_simt/*")
execute_process(COMMAND nvidia-smi -L RESULT_VARIABLE no_gpu OUTPUT_QUIET ERROR_QUIET)

function(doctor expected_codes)
  cmake_parse_arguments(D "" "" "ENV;ARGS" ${ARGN})
  execute_process(COMMAND "${CMAKE_COMMAND}" -E env ${D_ENV} "${ARCHBENCH}" doctor ${D_ARGS}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc IN_LIST expected_codes)
    message(FATAL_ERROR "archbench doctor ${D_ARGS} (env ${D_ENV}): exit ${rc}, expected one of ${expected_codes}\n"
                        "stdout:\n${out}\nstderr:\n${err}")
  endif()
  set(last_out "${out}" PARENT_SCOPE)
  set(last_rc "${rc}" PARENT_SCOPE)
endfunction()

include("${CMAKE_CURRENT_LIST_DIR}/require_substrings.cmake")
# expect_text(WHAT NEEDLE...): the last doctor report holds every NEEDLE. The report wraps its lines
# at 120 columns, so a line break and the next line's indent read as one space.
function(expect_text what)
  string(REGEX REPLACE "\n +" " " unwrapped "${last_out}")
  require_substrings("${unwrapped}" "${what}: the doctor's report" ${ARGN})
endfunction()

# The report's shape: the manifest, four layers, the summary with its exit code.
if(no_gpu)
  set(codes 3)
else()
  set(codes 0 1)
endif()
doctor("${codes}" ARGS ${small_workload})
expect_text("report" "environment manifest:" "build targets" "compiler" "kernel module" "1. hardware & driver"
            "2. runtime" "3. build" "4. workload" "summary: " "(exit ${last_rc})")

# No driver: the decoded error (35) with its cause and a fix, and exit 3.
if(no_gpu)
  expect_text("no driver" "FAIL  [device-count] cudaGetDeviceCount failed: cudaErrorInsufficientDriver (35)"
              "cause: no NVIDIA driver library (libcuda.so.1)" "[kernel-module]" "fix:   " "no usable CUDA driver or device (exit 3)")
endif()

# CUDA_VISIBLE_DEVICES naming a GPU twice, and a GPU that cannot exist: both hide every GPU. Judged
# from the value itself, so the finding appears with or without a driver.
# Index 0 exists on every GPU host, so the duplicate is the only thing wrong with '0,0' (with '1,1'
# a one-GPU host would first see an index past its GPU count).
doctor(3 ENV "CUDA_VISIBLE_DEVICES=0,0" ARGS ${small_workload})
expect_text("duplicate CUDA_VISIBLE_DEVICES" "FAIL  [visible-devices] CUDA_VISIBLE_DEVICES='0,0' hides every GPU"
            "index 0 is listed twice" "list each GPU once")
doctor(3 ENV "CUDA_VISIBLE_DEVICES=99" ARGS ${small_workload})
expect_text("missing device" "[visible-devices] CUDA_VISIBLE_DEVICES='99'" "nvidia-smi -L")
if(NOT no_gpu)
  expect_text("missing device on a GPU host" "FAIL  [visible-devices]" "index 99 is not below the")
endif()

# A second, different libcudart reachable through LD_LIBRARY_PATH: a real shared library whose
# SONAME says CUDA 12, next to this process's CUDA 13 runtime.
set(fake "${WORK_DIR}/doctor_other_cudart")
file(REMOVE_RECURSE "${fake}")
file(MAKE_DIRECTORY "${fake}")
file(WRITE "${fake}/cudart12.cpp" "extern \"C\" int cudaRuntimeGetVersion(int* v) { *v = 12040; return 0; }\n")
execute_process(COMMAND "${CXX}" -shared -fPIC -Wl,-soname,libcudart.so.12 -o "${fake}/libcudart.so.12.4.127" "${fake}/cudart12.cpp"
                RESULT_VARIABLE cc_rc ERROR_VARIABLE cc_err)
if(NOT cc_rc EQUAL 0)
  message(FATAL_ERROR "cannot build the second libcudart: ${cc_err}")
endif()
file(CREATE_LINK "libcudart.so.12.4.127" "${fake}/libcudart.so.12" SYMBOLIC)
set(ld "${fake}")
if(DEFINED ENV{LD_LIBRARY_PATH} AND NOT "$ENV{LD_LIBRARY_PATH}" STREQUAL "")
  set(ld "${fake}:$ENV{LD_LIBRARY_PATH}")
endif()
doctor("${codes}" ENV "LD_LIBRARY_PATH=${ld}" ARGS ${small_workload})
expect_text("second libcudart" "WARN  [other-copies:libcudart] another libcudart is reachable besides the loaded"
            "12.4.127 via LD_LIBRARY_PATH (${fake})" "remove ${fake} from LD_LIBRARY_PATH")
file(REMOVE_RECURSE "${fake}")

# CUDA_DISABLE_PTX_JIT in the environment: a warning with the fix.
doctor("${codes}" ENV "CUDA_DISABLE_PTX_JIT=1" ARGS ${small_workload})
expect_text("CUDA_DISABLE_PTX_JIT" "WARN  [env:CUDA_DISABLE_PTX_JIT] CUDA_DISABLE_PTX_JIT=1 is set" "223"
            "fix:   unset it")

# --check: archbench itself is read (judged when there is a device); an unreadable file is bad input.
doctor("${codes}" ARGS ${small_workload} --check "${ARCHBENCH}")
expect_text("--check archbench" "[check-file] ${ARCHBENCH}")
if(no_gpu)
  doctor(3 ARGS ${small_workload} --check "/nonexistent/libfoo.so")
else()
  doctor(5 ARGS ${small_workload} --check "/nonexistent/libfoo.so")
endif()
expect_text("--check missing file" "FAIL  [check-file] cannot read /nonexistent/libfoo.so")

# --json: written atomically, the documented schema and the same exit code.
set(json "${WORK_DIR}/doctor.json")
file(REMOVE "${json}")
doctor("${codes}" ARGS ${small_workload} --json "${json}")
file(READ "${json}" text)
string(JSON schema GET "${text}" schema)
string(JSON code GET "${text}" exit_code)
string(JSON hardware GET "${text}" layers hardware)
if(NOT schema STREQUAL "archbench.doctor" OR NOT code EQUAL last_rc)
  message(FATAL_ERROR "doctor --json: schema '${schema}', exit_code ${code} (the process exited ${last_rc})")
endif()
if(no_gpu AND NOT hardware STREQUAL "FAIL")
  message(FATAL_ERROR "doctor --json without a driver: hardware layer '${hardware}'")
endif()
file(REMOVE "${json}")

# Usage errors.
doctor(2 ARGS --filter "nosuch/*")
doctor(2 ARGS --no-such-option)
