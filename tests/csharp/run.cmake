# Compiles the C# binding and its test with Mono's mcs, and runs it against libperlin-c.so.
execute_process(COMMAND ${MCS} -warnaserror -out:${WORK_DIR}/perlin_test.exe ${SOURCE_DIR}/bindings/csharp/Perlin.cs
                        ${SOURCE_DIR}/tests/csharp/PerlinTest.cs RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "mcs could not compile the C# binding")
endif()
set(ENV{LD_LIBRARY_PATH} "${LIB_DIR}")
execute_process(COMMAND ${MONO} ${WORK_DIR}/perlin_test.exe ${SOURCE_DIR}/tests/data RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "the C# test failed")
endif()
