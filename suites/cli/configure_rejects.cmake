# A bad ARCHBENCH_ARCH_LIST must stop configure with an error that says what was wrong and what
# this nvcc supports. Two ways, same expectations:
#   -DSOURCE_DIR=... -DWORK_DIR=...  configures a throw-away build (the CMake plumbing: an empty
#                                    list, a list with ';'); about 14 s, most of it CUDA detection.
#   -DTOOL=<archbench-archlist>      asks the arch-list tool configure runs (the grammar cases),
#                                    which is where the message comes from; milliseconds.
string(REPLACE "<semi>" ";" LIST "${LIST}")
if(DEFINED TOOL)
  execute_process(
    COMMAND "${TOOL}" --list "${LIST}" --nvcc "${CUDA_COMPILER}"
            --cmake-out "${WORK_DIR}.cmake" --manifest-out "${WORK_DIR}.inc"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  file(REMOVE "${WORK_DIR}.cmake" "${WORK_DIR}.inc")
else()
  file(REMOVE_RECURSE "${WORK_DIR}")
  execute_process(
    COMMAND "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${WORK_DIR}" "-DARCHBENCH_ARCH_LIST=${LIST}"
            "-DCMAKE_CUDA_COMPILER=${CUDA_COMPILER}" -DARCHBENCH_BUILD_TESTS=OFF
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  file(REMOVE_RECURSE "${WORK_DIR}")
endif()
if(rc EQUAL 0)
  message(FATAL_ERROR "accepted ARCHBENCH_ARCH_LIST='${LIST}'")
endif()
foreach(expected "invalid arch list" "supports: 7.5 8.0" "names: " "Hopper")
  string(FIND "${err}" "${expected}" pos)
  if(pos EQUAL -1)
    message(FATAL_ERROR "the error for '${LIST}' lacks '${expected}':\n${err}")
  endif()
endforeach()
message(STATUS "rejected '${LIST}' as expected:\n${err}")
