# Writes OUT (bench_commit.h) with the short commit of SRC, only if it changed.
execute_process(COMMAND git rev-parse --short HEAD
                WORKING_DIRECTORY ${SRC}
                OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE
                RESULT_VARIABLE rc ERROR_QUIET)
if(NOT rc EQUAL 0 OR commit STREQUAL "")
  if(DEFINED ENV{HIVE_COMMIT} AND NOT "$ENV{HIVE_COMMIT}" STREQUAL "")
    set(commit "$ENV{HIVE_COMMIT}")
  else()
    set(commit "unknown")
  endif()
endif()
set(text "/* written by bench/harness/commit.cmake at build time */\n#define BENCH_COMMIT \"${commit}\"\n")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
else()
  set(old "")
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUT} "${text}")
endif()
