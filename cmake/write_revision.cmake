# Run at every build (target hwcomm_revision): writes OUT, a header naming the
# tree's revision, only when the revision changed, so a commit is named in the
# binaries built after it without reconfiguring and nothing rebuilds otherwise.
# A copy of the tree without .git (e.g. shipped to a GPU machine) names its
# revision through the HWCOMM_REVISION environment variable.
set(rev "$ENV{HWCOMM_REVISION}")
if(rev STREQUAL "" AND GIT_EXECUTABLE AND EXISTS "${SOURCE_DIR}/.git")
  execute_process(COMMAND "${GIT_EXECUTABLE}" describe --always --dirty
                  WORKING_DIRECTORY "${SOURCE_DIR}" OUTPUT_VARIABLE rev
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
endif()
if(rev STREQUAL "")
  set(rev "unknown")
endif()
set(text "// Written by cmake/write_revision.cmake at build time.\n#pragma once\n#define HWCOMM_GIT_REVISION \"${rev}\"\n")
set(old "")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT text STREQUAL old)
  file(WRITE "${OUT}" "${text}")
endif()
