# Installs the build tree into a scratch prefix and runs, from there and without LD_LIBRARY_PATH:
# the C test built with pkg-config's flags (C99, as a C user builds it), the Lua 5.4 module, the
# LuaJIT module and the C# binding (with libperlin-c.so copied beside the program, where Mono
# and .NET look). Each interpreter is optional: an empty path skips it. Then the README's own
# set-up lines after ./scripts/install (PATH, LUA_CPATH, LUA_PATH, pkg-config, mcs and mono, and
# Debian's python3 finding the package in its user site), with HOME=WORK_DIR/home and the prefix
# its ~/.local: readme_install_test.py.
# Arguments: -DBUILD_DIR= -DWORK_DIR= -DTESTS= (tests/) -DLUA54= -DLUAJIT= -DMCS= -DMONO= -DPYTHON=
file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${WORK_DIR}/home/.local")
set(clean_env ${CMAKE_COMMAND} -E env --unset=LD_LIBRARY_PATH --unset=PERLIN_LIB --unset=LUA_PATH
              --unset=LUA_CPATH --unset=LUA_PATH_5_4 --unset=LUA_CPATH_5_4)
function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out
                  WORKING_DIRECTORY "${WORK_DIR}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${ARGN}\n${out}")
  endif()
  message(STATUS "${what}: passed")
endfunction()

file(MAKE_DIRECTORY "${WORK_DIR}")
run("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
file(GLOB pcdirs ${prefix}/lib*/pkgconfig ${prefix}/lib/*/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "${pcdirs}")
execute_process(COMMAND pkg-config --cflags --libs perlin OUTPUT_VARIABLE flags RESULT_VARIABLE rc
                OUTPUT_STRIP_TRAILING_WHITESPACE)
if(rc)
  message(FATAL_ERROR "pkg-config --cflags --libs perlin failed")
endif()
separate_arguments(flags UNIX_COMMAND "${flags}")
run("the C test, compiled with pkg-config's flags" cc -std=c99 -Wall -Wextra -pedantic -Werror
    ${TESTS}/c/c_api_test.c ${flags} -lm -o ${WORK_DIR}/c_api_test)
run("the C test, run from the prefix" ${clean_env} ${WORK_DIR}/c_api_test
    ${TESTS}/data/improved_noise_3d.txt ${TESTS}/data/recipes.txt)

file(GLOB lua_module ${prefix}/lib*/lua/5.4/perlin.so ${prefix}/lib/*/lua/5.4/perlin.so)
if(LUA54 AND lua_module)
  get_filename_component(lua_dir "${lua_module}" DIRECTORY)
  run("Lua 5.4's require" ${clean_env} ${LUA54} -e "package.cpath='${lua_dir}/?.so'"
      ${TESTS}/lua/test.lua perlin ${TESTS}/data)
endif()
if(LUAJIT)
  run("LuaJIT's require" ${clean_env} LUA_PATH=${prefix}/share/lua/5.1/?.lua ${LUAJIT}
      ${TESTS}/lua/test.lua perlin_ffi ${TESTS}/data)
endif()
if(MCS AND MONO)
  set(app "${WORK_DIR}/csharp")
  file(MAKE_DIRECTORY "${app}")
  run("mcs" ${MCS} -warnaserror -out:${app}/perlin_test.exe ${prefix}/share/perlin/csharp/Perlin.cs
      ${TESTS}/csharp/PerlinTest.cs)
  file(GLOB c_lib ${prefix}/lib*/libperlin-c.so ${prefix}/lib/*/libperlin-c.so)
  file(COPY_FILE "${c_lib}" "${app}/libperlin-c.so")
  run("C# beside libperlin-c.so" ${clean_env} ${MONO} ${app}/perlin_test.exe ${TESTS}/data)
endif()

if(PYTHON)
  run("the README's set-up lines, from a new shell" ${PYTHON} ${TESTS}/consumers/readme_install_test.py
      ${TESTS}/../README.md ${WORK_DIR}/home ${WORK_DIR}/readme)
endif()
