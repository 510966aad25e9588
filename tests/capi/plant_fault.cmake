# cmake -DIN=<file> -DOUT=<file> -DFROM=<text> -DTO=<text> [-DPLUSARG=<name>]
#       -P plant_fault.cmake
# Copies IN to OUT with the one occurrence of FROM replaced by TO (a planted
# RTL fault); stops if FROM does not occur exactly once, so that a change to
# the RTL cannot leave the fault silently unplanted. With PLUSARG, the copy
# declares after its module's port list the switch `tcu_plant`, 1 while the
# simulation has +PLUSARG ($test$plusargs, read once at start-up), which TO
# uses to plant the fault only then: one model runs as the RTL and faulty.
file(READ ${IN} text)
string(FIND "${text}" "${FROM}" first)
string(FIND "${text}" "${FROM}" last REVERSE)
if(first EQUAL -1 OR NOT first EQUAL last)
  message(FATAL_ERROR "plant_fault: '${FROM}' must occur exactly once in ${IN}")
endif()
string(REPLACE "${FROM}" "${TO}" text "${text}")
if(PLUSARG)
  string(FIND "${text}" "module " module_at)
  string(SUBSTRING "${text}" ${module_at} -1 module_text)
  string(FIND "${module_text}" ");\n" ports_end)
  if(module_at EQUAL -1 OR ports_end EQUAL -1)
    message(FATAL_ERROR "plant_fault: no module port list in ${IN}")
  endif()
  math(EXPR split "${module_at} + ${ports_end} + 3")
  string(SUBSTRING "${text}" 0 ${split} head)
  string(SUBSTRING "${text}" ${split} -1 tail)
  set(text "${head}\n  logic tcu_plant;  // the planted fault's switch (tests/capi/plant_fault.cmake)\n  initial tcu_plant = $test$plusargs(\"${PLUSARG}\");\n${tail}")
endif()
file(WRITE ${OUT} "${text}")
