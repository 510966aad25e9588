# cmake -DMDIR=<dir> -DBATCHES="<fast.cpp>;<slow.cpp>" -P gls_batches.cmake
# Writes the two files a gate-level model's library compiles (tests/rtl/
# gls_units.cmake): <fast.cpp> includes Verilator's per-cycle files in MDIR,
# <slow.cpp> its set-up files (*__Slow.cpp, the symbol table).
list(GET BATCHES 0 fast_out)
list(GET BATCHES 1 slow_out)
file(GLOB generated ${MDIR}/*.cpp)
list(SORT generated)
set(fast "")
set(slow "")
foreach(source ${generated})
  if(source MATCHES "(__Slow|__Syms)\\.cpp$")
    string(APPEND slow "#include \"${source}\"\n")
  else()
    string(APPEND fast "#include \"${source}\"\n")
  endif()
endforeach()
if(fast STREQUAL "" OR slow STREQUAL "")
  message(FATAL_ERROR "gls_batches.cmake: no Verilated sources in ${MDIR}")
endif()
file(WRITE ${fast_out} "${fast}")
file(WRITE ${slow_out} "${slow}")
