# Configures a throw-away build with ARCHBENCH_ARCH_LIST=${LIST} and expects a configure error
# that says what was wrong and what this nvcc supports.
string(REPLACE "<semi>" ";" LIST "${LIST}")
file(REMOVE_RECURSE "${WORK_DIR}")
execute_process(
  COMMAND "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${WORK_DIR}" "-DARCHBENCH_ARCH_LIST=${LIST}"
          "-DCMAKE_CUDA_COMPILER=${CUDA_COMPILER}" -DARCHBENCH_BUILD_TESTS=OFF
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(REMOVE_RECURSE "${WORK_DIR}")
if(rc EQUAL 0)
  message(FATAL_ERROR "configure accepted ARCHBENCH_ARCH_LIST='${LIST}'")
endif()
foreach(expected "invalid arch list" "supports: 7.5 8.0" "names: " "Hopper")
  string(FIND "${err}" "${expected}" pos)
  if(pos EQUAL -1)
    message(FATAL_ERROR "configure error for '${LIST}' lacks '${expected}':\n${err}")
  endif()
endforeach()
message(STATUS "rejected '${LIST}' as expected:\n${err}")
