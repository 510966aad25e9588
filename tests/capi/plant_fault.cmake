# cmake -DIN=<file> -DOUT=<file> -DFROM=<text> -DTO=<text> -P plant_fault.cmake
# Copies IN to OUT with the one occurrence of FROM replaced by TO (a planted
# RTL fault); stops if FROM does not occur exactly once, so that a change to
# the RTL cannot leave the fault silently unplanted.
file(READ ${IN} text)
string(FIND "${text}" "${FROM}" first)
string(FIND "${text}" "${FROM}" last REVERSE)
if(first EQUAL -1 OR NOT first EQUAL last)
  message(FATAL_ERROR "plant_fault: '${FROM}' must occur exactly once in ${IN}")
endif()
string(REPLACE "${FROM}" "${TO}" text "${text}")
file(WRITE ${OUT} "${text}")
