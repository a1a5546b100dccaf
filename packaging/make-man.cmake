# SPDX-License-Identifier: MIT
# cmake -DBWLAB=path/to/bwlab -DHELP2MAN=path/to/help2man -DOUT=dir -P make-man.cmake
# Writes OUT/bwlab.1.gz with help2man from `bwlab --help` and `--version`, plus a COMMANDS section
# holding the --help of every command and nested command (found in the "Subcommands:" part of each
# help text, so a new command needs no change here).
cmake_minimum_required(VERSION 3.25)
foreach(v BWLAB HELP2MAN OUT)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "make-man.cmake: -D${v}= is required")
  endif()
endforeach()

# The help text of `bwlab ARGS --help`; fails the build if it does not run.
function(help_of out)
  execute_process(COMMAND ${BWLAB} ${ARGN} --help OUTPUT_VARIABLE text RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "make-man.cmake: `bwlab ${ARGN} --help` exited ${rc}")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# The command names listed under "Subcommands:" in a help text.
function(commands_in text out)
  set(names)
  set(in_list OFF)
  string(REPLACE "\n" ";" lines "${text}")
  foreach(line IN LISTS lines)
    if(line STREQUAL "Subcommands:")
      set(in_list ON)
    elseif(in_list AND line MATCHES "^  ([a-z0-9-]+) ")
      list(APPEND names ${CMAKE_MATCH_1})
    elseif(in_list AND NOT line MATCHES "^ ")
      set(in_list OFF)
    endif()
  endforeach()
  set(${out} ${names} PARENT_SCOPE)
endfunction()

# roff-safe verbatim text: backslashes escaped, lines starting with . or ' neutralised.
function(roff_verbatim text out)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

set(include "[COMMANDS]\nEach command has its own options; `bwlab COMMAND --help` prints the same text as below.\n")
help_of(top)
commands_in("${top}" commands)
if(NOT commands)
  message(FATAL_ERROR "make-man.cmake: no commands found in `bwlab --help`")
endif()
foreach(cmd IN LISTS commands)
  help_of(text ${cmd})
  roff_verbatim("${text}" body)
  string(APPEND include ".SS \"bwlab ${cmd}\"\n.nf\n${body}.fi\n")
  commands_in("${text}" nested)
  foreach(sub IN LISTS nested)
    help_of(text ${cmd} ${sub})
    roff_verbatim("${text}" body)
    string(APPEND include ".SS \"bwlab ${cmd} ${sub}\"\n.nf\n${body}.fi\n")
  endforeach()
endforeach()
string(APPEND include "[SEE ALSO]\n.BR bwlab-gui (1)\n")
file(MAKE_DIRECTORY ${OUT})
file(WRITE ${OUT}/bwlab.h2m "${include}")

execute_process(COMMAND ${HELP2MAN} --no-info --section=1
                  "--name=memory-bandwidth contention lab: rep stosb against non-temporal clearing"
                  --include=${OUT}/bwlab.h2m --output=${OUT}/bwlab.1 ${BWLAB}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "make-man.cmake: help2man failed (${rc})")
endif()
execute_process(COMMAND gzip -9nf ${OUT}/bwlab.1 RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "make-man.cmake: gzip failed (${rc})")
endif()
