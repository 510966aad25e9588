# `tcu explore`'s build of one sweep point: the datapath Verilated at the
# point's parameters (TCU_CONFIGS / TCU_CONFIG_<name>, as any build), linked
# into a `tcu` with the objects and libraries of the base build
# (TCU_EXPLORE_BASE, whose tcu-explore-base.cmake names them). Only the
# Verilated model and the generated datapath_factory.cpp are compiled here:
# every other object does not depend on the configuration
# (systemc/datapath_model.h).
set(base_file ${TCU_EXPLORE_BASE}/tcu-explore-base.cmake)
if(NOT EXISTS ${base_file})
  message(FATAL_ERROR "TCU_EXPLORE_BASE=${TCU_EXPLORE_BASE}: no tcu-explore-base.cmake there "
                      "(it must be a build of this project with the RTL)")
endif()
include(${base_file})
if(TCU_BASE_SANITIZE)
  message(FATAL_ERROR "TCU_EXPLORE_BASE=${TCU_EXPLORE_BASE}: a sanitizer build cannot be a base")
endif()

find_package(ZLIB REQUIRED)
find_package(Threads REQUIRED)
find_package(PkgConfig REQUIRED)
pkg_check_modules(MPFR REQUIRED IMPORTED_TARGET mpfr)  # tcu_coverage's
set(TCU_VERILATED_RUNTIME_LIBRARY ${TCU_BASE_RUNTIME})
set(TCU_VERILATED_UNITY ON)
add_subdirectory(rtl)  # the model(s) and generated/datapath_factory.cpp

add_executable(tcu ${TCU_BASE_OBJECTS} ${PROJECT_BINARY_DIR}/generated/datapath_factory.cpp)
target_include_directories(tcu PRIVATE ${PROJECT_SOURCE_DIR}/systemc
                                       ${PROJECT_SOURCE_DIR}/model/include
                                       ${PROJECT_BINARY_DIR}/generated/include)
# A group: the base libraries refer to each other in both directions.
target_link_libraries(tcu PRIVATE -Wl,--start-group ${TCU_BASE_LIBRARIES} -Wl,--end-group)
foreach(config ${TCU_CONFIG_NAMES})
  target_link_libraries(tcu PRIVATE tcu_rtl_${config})
endforeach()
verilator_link_systemc(tcu)
target_link_libraries(tcu PRIVATE ZLIB::ZLIB Threads::Threads PkgConfig::MPFR)
set_target_properties(tcu PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR})
