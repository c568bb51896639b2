# Configures, builds and runs tests/consumers/add-subdirectory; passes when the handler saw the error.
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR} -G ${GENERATOR}
                        -DPERLIN_SOURCE_DIR=${PERLIN_SOURCE_DIR} -DCMAKE_BUILD_TYPE=Release
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "configure failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR} RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "the library does not build with -fno-exceptions")
endif()
execute_process(COMMAND ${WORK_DIR}/no_exceptions OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(rc OR NOT out MATCHES "handler: octaves: must be 1 to 32, got 0")
  message(FATAL_ERROR "no_exceptions: status ${rc}, output '${out}'")
endif()
file(GLOB shared "${WORK_DIR}/perlin/libperlin.so*")
if(NOT shared)
  message(FATAL_ERROR "BUILD_SHARED_LIBS=ON did not build libperlin.so")
endif()
