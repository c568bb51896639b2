# Embeds the preview page's files in the library (run at build time by src/page/CMakeLists.txt):
# index.html with its lines @page.css@ and @page.js@ replaced by page.css and page.js, written as
# the raw string k_page of a header, and controls.html (the page's own controls) as k_controls.
# The tokens the library fills at run time (@controls@, @backend@) stay in the text. Usage:
#   cmake -DASSETS=src/page/assets -DOUT=page_template.hpp -P embed.cmake
foreach(part index.html page.css page.js controls.html)
  file(READ "${ASSETS}/${part}" "_${part}")
endforeach()
set(_page "${_index.html}")
foreach(part page.css page.js)
  string(FIND "${_page}" "@${part}@\n" _at)
  if(_at EQUAL -1)
    message(FATAL_ERROR "${ASSETS}/index.html: no line @${part}@ to hold ${part}")
  endif()
  string(REPLACE "@${part}@\n" "${_${part}}" _page "${_page}")
endforeach()
foreach(text _page _controls.html)
  string(FIND "${${text}}" ")PAGE\"" _at)
  if(NOT _at EQUAL -1)
    message(FATAL_ERROR "${ASSETS}: the text )PAGE\" would end the page's raw string early")
  endif()
endforeach()
# configure_file rewrites the header only when its text changes: no rebuild for nothing.
file(WRITE "${OUT}.new"
  "// Generated from src/page/assets/ by src/page/embed.cmake: edit those files.\n"
  "#pragma once\n\nnamespace perlin_page {\n\n"
  "/// The preview page: index.html with page.css and page.js inside it.\n"
  "inline constexpr const char* k_page = R\"PAGE(${_page})PAGE\";\n\n"
  "/// The page's own controls, by group (controls.html).\n"
  "inline constexpr const char* k_controls = R\"PAGE(${_controls.html})PAGE\";\n\n"
  "}  // namespace perlin_page\n")
configure_file("${OUT}.new" "${OUT}" COPYONLY)
file(REMOVE "${OUT}.new")
