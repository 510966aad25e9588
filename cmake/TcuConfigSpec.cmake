# The configuration spec (spec/config.toml, docs/architecture.md "The
# configuration spec"): tcu_tools.spec.gen_config turns it into C++ (tcu::
# DatapathConfig, tcu::FrontEndConfig, the enumerations and the unit table's
# functions: generated/include/tcu/{datapath_config,front_end_config,
# spec_enums}.h and generated/datapath_config.cpp, compiled into tcu_model;
# generated/capi_enums_check.cpp, compiled into tcu_golden), checks that the
# SystemVerilog packages' generated sections are the spec's, and resolves the
# configurations this build Verilates (TCU_CONFIGS) into
# generated/tcu_configs.cmake: TCU_DATAPATH_PARAMS, TCU_CONFIG_RESOLVED_<name>
# (every RTL parameter, given or default), TCU_CONFIG_TABLE and
# TCU_CONFIGURATIONS (rtl/CMakeLists.txt's input). A configuration that
# breaks the spec's rules stops the configure step with the generator's
# message (the configuration, the parameter, the value and why).
#
# TCU_CONFIGS names configurations of the spec (default, small) or one's own,
# given on the command line:
#   cmake -DTCU_CONFIGS=pt -DTCU_CONFIG_pt="Int4MacsPerCycle=64;F64Enable=0" ...
find_package(Python3 3.11 REQUIRED COMPONENTS Interpreter)  # tomllib
set(TCU_CONFIGS "default;small" CACHE STRING "datapath configurations to Verilate")
set(TCU_CONFIG_NAMES ${TCU_CONFIGS})
# Bring your own datapath (rtl/CMakeLists.txt): configuration 'byo', its
# parameters the families it runs and the router's words per cycle.
set(TCU_BYO_RTL "" CACHE STRING "SystemVerilog file(s) of a datapath of one's own (configuration byo)")
set(TCU_BYO_TOP "" CACHE STRING "the top module of TCU_BYO_RTL")
set(TCU_BYO_PARAMS "@byo_int4" CACHE STRING
    "configuration byo's parameters (Param=Value;..., or @name: a configuration of spec/config.toml)")
if(TCU_BYO_RTL)
  if(NOT TCU_BYO_TOP MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "TCU_BYO_RTL is set: TCU_BYO_TOP must name its top module "
                        "(got '${TCU_BYO_TOP}')")
  endif()
  set(TCU_CONFIG_byo ${TCU_BYO_PARAMS})
  if(NOT "byo" IN_LIST TCU_CONFIG_NAMES)
    list(APPEND TCU_CONFIG_NAMES byo)
  endif()
endif()
# Mutation testing (scripts/mutate.sh, tcu_tools.mutate): configuration
# 'mutant', the small configuration's parameters, Verilated from RTL in which
# every mutant is compiled in and chosen at run time (TCU_PLUSARGS=+mutant=K).
option(TCU_MUTATION "Verilate configuration 'mutant' (mutation testing)" OFF)
option(TCU_FULL_TIER "build the second tier's own test models (scripts/test.sh --full)" OFF)
if(TCU_MUTATION)
  set(TCU_CONFIG_mutant "@small")
  if(NOT "mutant" IN_LIST TCU_CONFIG_NAMES)
    list(APPEND TCU_CONFIG_NAMES mutant)
  endif()
endif()
set(tcu_config_requests "")
foreach(config ${TCU_CONFIG_NAMES})
  if(DEFINED TCU_CONFIG_${config})
    string(REPLACE ";" " " assignments "${TCU_CONFIG_${config}}")
    list(APPEND tcu_config_requests --config "${config}=${assignments}")
  else()
    list(APPEND tcu_config_requests --config "${config}")
  endif()
endforeach()
# The generators are modules of the package tcu_tools, run from python/ (a
# module run with -m is imported from the working directory), so any Python
# 3.11 runs them, the .venv's or pip's build environment of the module tcu.
execute_process(
  COMMAND ${Python3_EXECUTABLE} -m tcu_tools.spec.gen_config
          ${PROJECT_BINARY_DIR}/generated ${tcu_config_requests} --root ${PROJECT_SOURCE_DIR}
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}/python
  RESULT_VARIABLE tcu_config_result ERROR_VARIABLE tcu_config_error)
if(NOT tcu_config_result EQUAL 0)
  message(FATAL_ERROR "${tcu_config_error}")
endif()
set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${PROJECT_SOURCE_DIR}/spec/config.toml
             ${PROJECT_SOURCE_DIR}/python/tcu_tools/__init__.py
             ${PROJECT_SOURCE_DIR}/python/tcu_tools/spec/__init__.py
             ${PROJECT_SOURCE_DIR}/python/tcu_tools/spec/gen_config.py)
include(${PROJECT_BINARY_DIR}/generated/tcu_configs.cmake)
