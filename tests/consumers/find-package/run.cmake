# Installs the build tree into a scratch prefix, then configures, builds and runs the consumers:
# every component, then the core alone with pkg-config finding nothing (no image dependencies),
# then every component again from the build tree itself (export(EXPORT), nothing installed).
# Arguments: -DBUILD_DIR= -DSOURCE_DIR= -DWORK_DIR= -DGENERATOR=
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}/empty")
set(prefix "${WORK_DIR}/prefix")
set(configure "${CMAKE_COMMAND};-S;${SOURCE_DIR};-G;${GENERATOR};-DCMAKE_PREFIX_PATH=${prefix}")
foreach(step
    "${CMAKE_COMMAND};--install;${BUILD_DIR};--prefix;${prefix}"
    "${configure};-B;${WORK_DIR}/all"
    "${CMAKE_COMMAND};--build;${WORK_DIR}/all"
    "${WORK_DIR}/all/consumer"
    "${WORK_DIR}/all/c_consumer"
    "${CMAKE_COMMAND};-E;env;PKG_CONFIG_LIBDIR=${WORK_DIR}/empty;PKG_CONFIG_PATH=;${configure};-B;${WORK_DIR}/core;-DCORE_ONLY=ON"
    "${CMAKE_COMMAND};--build;${WORK_DIR}/core"
    "${WORK_DIR}/core/consumer"
    "${CMAKE_COMMAND};-S;${SOURCE_DIR};-G;${GENERATOR};-DCMAKE_PREFIX_PATH=${BUILD_DIR};-B;${WORK_DIR}/tree"
    "${CMAKE_COMMAND};--build;${WORK_DIR}/tree"
    "${WORK_DIR}/tree/consumer")
  execute_process(COMMAND ${step} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out
                  WORKING_DIRECTORY "${WORK_DIR}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed: ${step}\n${out}")
  endif()
endforeach()
message(STATUS "consumer printed: ${out}")
