# The physical figures' data file (spec/phys_osu018.toml, written by
# tcu_tools.phys): tcu_tools.spec.gen_phys turns its dot-unit points into
# generated/include/tcu/phys_figures.h, compiled into tcu_model's energy
# estimate (model/src/energy.cpp), so `tcu` reads no file at run time. A
# malformed data file stops the configure step with the generator's message.
execute_process(
  COMMAND ${Python3_EXECUTABLE} -m tcu_tools.spec.gen_phys
          ${PROJECT_SOURCE_DIR}/spec/phys_osu018.toml ${PROJECT_BINARY_DIR}/generated
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}/python  # cmake/TcuConfigSpec.cmake says why
  RESULT_VARIABLE tcu_phys_result ERROR_VARIABLE tcu_phys_error)
if(NOT tcu_phys_result EQUAL 0)
  message(FATAL_ERROR "${tcu_phys_error}")
endif()
set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${PROJECT_SOURCE_DIR}/spec/phys_osu018.toml ${PROJECT_SOURCE_DIR}/python/tcu_tools/spec/gen_phys.py)
