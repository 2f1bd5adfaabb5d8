# Resolves the arch list into nvcc flags by asking harness/arch's C++ grammar (the only
# implementation of the rules): builds tools/archlist with the host compiler and runs it.
#
# Which list: -DARCHBENCH_ARCH_LIST, else $ENV{TORCH_CUDA_ARCH_LIST}, else the default that
# harness/arch/arch_list.hpp defines. Sets ARCHBENCH_NVCC_GENCODE, ARCHBENCH_SASS_TARGETS,
# ARCHBENCH_PTX_TARGETS, ARCHBENCH_ARCH_GRAMMAR, ARCHBENCH_NVCC_VERSION, ARCHBENCH_PTX_ISA,
# ARCHBENCH_ARCH_LIST_SOURCE, ARCHBENCH_ARCH_LIST_GIVEN, and generates the build manifest's
# target initializers.

set(_archlist_bin "${CMAKE_BINARY_DIR}/archlist-tool")
file(GLOB _archlist_sources CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/harness/arch/*.cpp")
try_compile(_archlist_ok "${_archlist_bin}"
  SOURCES "${CMAKE_SOURCE_DIR}/tools/archlist/main.cpp" ${_archlist_sources}
  CMAKE_FLAGS "-DINCLUDE_DIRECTORIES=${CMAKE_SOURCE_DIR}"
  CXX_STANDARD 20
  CXX_STANDARD_REQUIRED ON
  COPY_FILE "${_archlist_bin}/archbench-archlist"
  OUTPUT_VARIABLE _archlist_log)
if(NOT _archlist_ok)
  message(FATAL_ERROR "archbench: could not build the arch-list tool:\n${_archlist_log}")
endif()

set(_default_flag "")
if(DEFINED ARCHBENCH_ARCH_LIST)
  set(ARCHBENCH_ARCH_LIST_SOURCE "ARCHBENCH_ARCH_LIST")
  set(_list "${ARCHBENCH_ARCH_LIST}")  # may be empty: the tool rejects that with its reason
elseif(NOT "$ENV{TORCH_CUDA_ARCH_LIST}" STREQUAL "")
  set(ARCHBENCH_ARCH_LIST_SOURCE "TORCH_CUDA_ARCH_LIST")
  set(_list "$ENV{TORCH_CUDA_ARCH_LIST}")
else()
  set(ARCHBENCH_ARCH_LIST_SOURCE "default")
  set(_list "")
  set(_default_flag --default)
endif()

set(_gen "${CMAKE_BINARY_DIR}/generated")
file(MAKE_DIRECTORY "${_gen}")
execute_process(
  COMMAND "${_archlist_bin}/archbench-archlist" --list "${_list}" ${_default_flag}
          --nvcc "${CMAKE_CUDA_COMPILER}"
          --cmake-out "${_gen}/archbench_targets.cmake"
          --manifest-out "${_gen}/archbench_build_targets.inc"
  RESULT_VARIABLE _rc
  ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "archbench: ${ARCHBENCH_ARCH_LIST_SOURCE}: ${_err}")
endif()
include("${_gen}/archbench_targets.cmake")
message(STATUS "archbench: arch list \"${ARCHBENCH_ARCH_LIST_GIVEN}\" (from ${ARCHBENCH_ARCH_LIST_SOURCE}, "
               "${ARCHBENCH_ARCH_GRAMMAR} grammar)")
message(STATUS "archbench:   SASS: ${ARCHBENCH_SASS_TARGETS}")
message(STATUS "archbench:   PTX:  ${ARCHBENCH_PTX_TARGETS} (ISA ${ARCHBENCH_PTX_ISA}, nvcc ${ARCHBENCH_NVCC_VERSION})")

# Gives a target this build's device-code targets (and nothing from CMake's own arch logic).
function(archbench_cuda_targets target)
  set_target_properties(${target} PROPERTIES CUDA_ARCHITECTURES OFF)
  target_compile_options(${target} PRIVATE "$<$<COMPILE_LANGUAGE:CUDA>:${ARCHBENCH_NVCC_GENCODE}>")
endfunction()

# Per-file arch-list overrides, for diagnosis and tests only (e.g. the doctor's per-dtype gap on a
# real device): ARCHBENCH_KERNEL_ARCH_OVERRIDES="attention/flash_simt.cu=8.0|norm/*.cu=8.0+PTX"
# compiles the kernel sources matching each glob (relative to kernels/) for that list instead of
# the build's. The build manifest records the overrides, so every report says the build is not
# uniform. Sets ARCHBENCH_KERNEL_OVERRIDE_COUNT and, per entry i, ARCHBENCH_KERNEL_OVERRIDE_<i>_GLOB
# and ARCHBENCH_KERNEL_OVERRIDE_<i>_GENCODE.
set(ARCHBENCH_KERNEL_ARCH_OVERRIDES "" CACHE STRING
  "Test/diagnosis only: '<glob under kernels/>=<arch list>' entries separated by '|'")
set(ARCHBENCH_KERNEL_OVERRIDE_COUNT 0)
if(NOT ARCHBENCH_KERNEL_ARCH_OVERRIDES STREQUAL "")
  string(REPLACE "|" ";" _override_entries "${ARCHBENCH_KERNEL_ARCH_OVERRIDES}")
  foreach(_entry IN LISTS _override_entries)
    string(FIND "${_entry}" "=" _eq)
    if(_eq LESS 1)
      message(FATAL_ERROR "archbench: ARCHBENCH_KERNEL_ARCH_OVERRIDES entry '${_entry}' is not '<glob>=<arch list>'")
    endif()
    string(SUBSTRING "${_entry}" 0 ${_eq} _glob)
    math(EXPR _after "${_eq} + 1")
    string(SUBSTRING "${_entry}" ${_after} -1 _override_list)
    string(REPLACE "," ";" _override_list "${_override_list}")  # '8.0,9.0' as well as '8.0 9.0'
    set(_i ${ARCHBENCH_KERNEL_OVERRIDE_COUNT})
    execute_process(
      COMMAND "${_archlist_bin}/archbench-archlist" --list "${_override_list}"
              --nvcc "${CMAKE_CUDA_COMPILER}"
              --cmake-out "${_gen}/archbench_override_${_i}.cmake"
              --manifest-out "${_gen}/archbench_override_${_i}.inc"
      RESULT_VARIABLE _rc
      ERROR_VARIABLE _err)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "archbench: ARCHBENCH_KERNEL_ARCH_OVERRIDES entry '${_entry}': ${_err}")
    endif()
    # The generated file sets the build-wide variable names: read it in a function scope.
    function(_archbench_read_override file out)
      include("${file}")
      set(${out} "${ARCHBENCH_NVCC_GENCODE}" PARENT_SCOPE)
    endfunction()
    _archbench_read_override("${_gen}/archbench_override_${_i}.cmake" _gencode)
    set(ARCHBENCH_KERNEL_OVERRIDE_${_i}_GLOB "${_glob}")
    set(ARCHBENCH_KERNEL_OVERRIDE_${_i}_GENCODE "${_gencode}")
    set(ARCHBENCH_KERNEL_OVERRIDE_${_i}_LIST "${_override_list}")
    math(EXPR ARCHBENCH_KERNEL_OVERRIDE_COUNT "${_i} + 1")
  endforeach()
endif()
