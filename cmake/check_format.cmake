# Fails when a C or C++ source file does not follow .clang-format (ctest's `format` test).
# Usage: cmake -DCLANG_FORMAT=... -DSOURCE_DIR=... -P check_format.cmake
file(GLOB_RECURSE sources
  ${SOURCE_DIR}/include/*.hpp ${SOURCE_DIR}/include/*.h
  ${SOURCE_DIR}/src/*.cpp ${SOURCE_DIR}/src/*.hpp ${SOURCE_DIR}/src/*.cc ${SOURCE_DIR}/src/*.h
  ${SOURCE_DIR}/tools/*.cpp ${SOURCE_DIR}/tools/*.hpp
  ${SOURCE_DIR}/tests/*.cpp ${SOURCE_DIR}/tests/*.hpp ${SOURCE_DIR}/tests/*.c
  ${SOURCE_DIR}/bench/*.cpp ${SOURCE_DIR}/bench/*.hpp
  ${SOURCE_DIR}/bindings/*.c ${SOURCE_DIR}/python/src/*.cpp ${SOURCE_DIR}/examples/*.cpp)
set(bad "")
foreach(f IN LISTS sources)
  execute_process(COMMAND ${CLANG_FORMAT} --dry-run -Werror ${f} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  if(rc)
    list(APPEND bad ${f})
  endif()
endforeach()
list(LENGTH sources n)
if(bad)
  string(REPLACE ";" "\n  " bad "${bad}")
  message(FATAL_ERROR "not formatted (run clang-format -i on them):\n  ${bad}")
endif()
message(STATUS "format: ${n} files follow .clang-format")
