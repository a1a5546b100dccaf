# SPDX-License-Identifier: MIT
# A fuzz replay's private TMPDIR. -DMODE=reset empties DIR before the replay; -DMODE=check fails
# when the replay left any file in it (a target must clean up what it writes).
if(MODE STREQUAL "reset")
  file(REMOVE_RECURSE "${DIR}")
  file(MAKE_DIRECTORY "${DIR}")
elseif(MODE STREQUAL "check")
  file(GLOB_RECURSE left LIST_DIRECTORIES false "${DIR}/*")
  if(left)
    message(FATAL_ERROR "files left behind in ${DIR}: ${left}")
  endif()
else()
  message(FATAL_ERROR "MODE must be reset or check")
endif()
