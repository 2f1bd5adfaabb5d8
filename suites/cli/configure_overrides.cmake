# ARCHBENCH_KERNEL_ARCH_OVERRIDES at configure time: a good entry compiles the matching kernel
# file for its own list (and the manifest says so); malformed entries, a glob matching nothing
# and a bad list in an entry are configure errors that say what is wrong.
#   -DSOURCE_DIR=<tree> -DWORK_DIR=<scratch> -DCUDA_COMPILER=<nvcc>
function(configure expect_ok overrides)
  file(REMOVE_RECURSE "${WORK_DIR}")
  execute_process(
    COMMAND "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${WORK_DIR}" -G Ninja -DARCHBENCH_ARCH_LIST=9.0
            "-DARCHBENCH_KERNEL_ARCH_OVERRIDES=${overrides}" "-DCMAKE_CUDA_COMPILER=${CUDA_COMPILER}"
            -DARCHBENCH_BUILD_TESTS=OFF -DARCHBENCH_BUILD_BENCHMARKS=OFF
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(expect_ok AND NOT rc EQUAL 0)
    message(FATAL_ERROR "configure rejected ARCHBENCH_KERNEL_ARCH_OVERRIDES='${overrides}':\n${err}")
  elseif(NOT expect_ok AND rc EQUAL 0)
    message(FATAL_ERROR "configure accepted ARCHBENCH_KERNEL_ARCH_OVERRIDES='${overrides}'")
  endif()
  string(REGEX REPLACE "[ \t\r\n]+" " " err "${err}")  # CMake wraps long messages
  set(last_err "${err}" PARENT_SCOPE)
endfunction()

function(expect_in text what)
  string(FIND "${text}" "${what}" pos)
  if(pos EQUAL -1)
    message(FATAL_ERROR "expected '${what}' in:\n${text}")
  endif()
endfunction()

configure(TRUE "attention/flash_simt.cu=8.0")
file(READ "${WORK_DIR}/build.ninja" ninja)
file(READ "${WORK_DIR}/generated/archbench_build_info.hpp" info)
expect_in("${info}" "ARCHBENCH_KERNEL_ARCH_OVERRIDES_STRING \"attention/flash_simt.cu=8.0\"")
expect_in("${last_err}" "compiled for \"8.0\" only")
# The overridden file gets the override's flags, the others the build's.
string(REGEX MATCH "FLAGS = [^\n]*arch=compute_80,code=sm_80[^\n]*" flags_80 "${ninja}")
if(flags_80 STREQUAL "")
  message(FATAL_ERROR "no compile rule carries the override's -gencode for sm_80")
endif()
string(FIND "${flags_80}" "compute_90" has_90)
if(NOT has_90 EQUAL -1)
  message(FATAL_ERROR "the override's rule also carries the build's sm_90: ${flags_80}")
endif()

configure(FALSE "attention/flash_simt.cu")
expect_in("${last_err}" "is not '<glob>=<arch list>'")
configure(FALSE "attention/no_such_file.cu=8.0")
expect_in("${last_err}" "no .cu file matches kernels/attention/no_such_file.cu")
configure(FALSE "attention/flash_simt.cu=7.0")
expect_in("${last_err}" "ARCHBENCH_KERNEL_ARCH_OVERRIDES entry 'attention/flash_simt.cu=7.0'")
file(REMOVE_RECURSE "${WORK_DIR}")
message(STATUS "overrides: accepted, recorded and applied; malformed entries rejected")
