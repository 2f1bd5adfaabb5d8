# ARCHBENCH_ARCH_LIST with family targets only ("10.0f 12.0f", issue #20): configure accepts it and says so,
# the build manifest lists sm_100f and sm_120f, every kernel source gets their -gencode flags, and no
# sm_90a code is built (the list has no 9.0). Configures a throw-away tree; compiles nothing.
#   -DSOURCE_DIR=<tree> -DWORK_DIR=<scratch> -DCUDA_COMPILER=<nvcc>
function(expect_in text what where)
  string(FIND "${text}" "${what}" pos)
  if(pos EQUAL -1)
    message(FATAL_ERROR "expected '${what}' in ${where}")
  endif()
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
execute_process(
  COMMAND "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${WORK_DIR}" -G Ninja "-DARCHBENCH_ARCH_LIST=10.0f 12.0f"
          "-DCMAKE_CUDA_COMPILER=${CUDA_COMPILER}" -DARCHBENCH_BUILD_TESTS=OFF -DARCHBENCH_BUILD_BENCHMARKS=OFF
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configure rejected ARCHBENCH_ARCH_LIST='10.0f 12.0f':\n${err}")
endif()
expect_in("${out}" "archbench:   SASS: sm_100f sm_120f" "configure's output:\n${out}")

file(READ "${WORK_DIR}/generated/archbench_build_targets.inc" manifest)
foreach(arch 100 120)
  expect_in("${manifest}" "{ImageKind::Sass, ${arch}, Suffix::FamilySpecific, ${arch}, PtxIsa{0, 0}}"
            "the build manifest's targets:\n${manifest}")
endforeach()
file(READ "${WORK_DIR}/generated/archbench_build_info.hpp" info)
expect_in("${info}" "ARCHBENCH_ARCH_LIST_GIVEN \"10.0f 12.0f\"" "archbench_build_info.hpp")

file(READ "${WORK_DIR}/build.ninja" ninja)
expect_in("${ninja}" "-gencode=arch=compute_100f,code=sm_100f -gencode=arch=compute_120f,code=sm_120f" "build.ninja")
string(FIND "${ninja}" "archbench_kernels_sm90a" sm90a)
if(NOT sm90a EQUAL -1)
  message(FATAL_ERROR "a list without 9.0 builds the sm_90a kernels")
endif()
file(REMOVE_RECURSE "${WORK_DIR}")
message(STATUS "family targets: configured, listed in the manifest and passed to nvcc")
