# The C API's tests (label capi): the example built against an installed
# copy, and the vector files replayed through the C API alone.

# The example C program against `cmake --install`'s copy, with pkg-config and
# with find_package (capi_install.sh).
add_test(NAME capi_install
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/capi/capi_install.sh ${PROJECT_BINARY_DIR}
                 ${PROJECT_SOURCE_DIR})
set_tests_properties(capi_install PROPERTIES LABELS capi)

# Every vector file through a driver that includes only tcu_golden.h.
add_executable(capi_replay ${CMAKE_CURRENT_SOURCE_DIR}/capi/capi_replay.cpp)
target_link_libraries(capi_replay PRIVATE tcu::golden nlohmann_json::nlohmann_json ZLIB::ZLIB)
# -O1: 7 s of CPU to compile instead of 11 s at -O3, for a run of 4.5 s
# instead of 3 s.
target_compile_options(capi_replay PRIVATE -Wall -Wextra -O1)
set_target_properties(capi_replay PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR})
file(GLOB capi_vector_files ${CMAKE_CURRENT_SOURCE_DIR}/data/*.jsonl.gz)
add_test(NAME capi_replay COMMAND capi_replay ${capi_vector_files})
set_tests_properties(capi_replay PROPERTIES LABELS capi
                     PASS_REGULAR_EXPRESSION "[1-9][0-9]* passed, 0 failed")
# The planted fault: one expected bit flipped must fail exactly that case,
# named with its file and line.
add_test(NAME capi_replay_flipped_bit
         COMMAND capi_replay --flip-expected 40
                 ${CMAKE_CURRENT_SOURCE_DIR}/data/silicon-h200-public.jsonl.gz)
set_tests_properties(capi_replay_flipped_bit PROPERTIES LABELS capi PASS_REGULAR_EXPRESSION
  "mismatch: [^\n]* case 1-2-8 \\([^\n]*silicon-h200-public.jsonl.gz:41\\) lane 0 d\\[0\\][^\n]*\n.*927 passed, 1 failed")
