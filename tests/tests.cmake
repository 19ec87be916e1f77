# Test registration. Unit tests: every tests/unit/test_*.c is one executable.
# Command-line and MPI tests: every tests/cli/*.sh and tests/mpi/*.sh is run with
# the binary's path, the repository root and the shared corpus directory.
set(SLP_SHARED_DIR "${CMAKE_SOURCE_DIR}/../shared" CACHE PATH "shared/ directory with lp/ and mps-edge/")

file(GLOB SLP_UNIT_TESTS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/unit/test_*.c)
foreach(src ${SLP_UNIT_TESTS})
  get_filename_component(name ${src} NAME_WE)
  add_executable(${name} ${src})
  target_compile_options(${name} PRIVATE ${SLP_WARNINGS})
  target_link_libraries(${name} PRIVATE shardlp_core)
  add_test(NAME unit/${name} COMMAND ${name} ${SLP_SHARED_DIR} ${CMAKE_SOURCE_DIR})
  set_tests_properties(unit/${name} PROPERTIES LABELS unit TIMEOUT 600)
endforeach()

# Script tests are skipped in sanitizer builds (those only run the unit tests).
if(NOT SLP_SANITIZE)
  file(GLOB SLP_SCRIPT_TESTS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/cli/*.sh ${CMAKE_SOURCE_DIR}/tests/mpi/*.sh)
  foreach(script ${SLP_SCRIPT_TESTS})
    get_filename_component(name ${script} NAME_WE)
    get_filename_component(dir ${script} DIRECTORY)
    get_filename_component(kind ${dir} NAME)
    add_test(NAME ${kind}/${name}
             COMMAND bash ${script} $<TARGET_FILE:shardlp> ${CMAKE_SOURCE_DIR} ${SLP_SHARED_DIR})
    set_tests_properties(${kind}/${name} PROPERTIES LABELS ${kind} TIMEOUT 900)
  endforeach()
endif()

# Timing-sensitive scripts (a signal must end the process within 2 s) run alone, so that
# a concurrent 4-rank test cannot starve them of the machine's cores.
if(NOT SLP_SANITIZE)
  set_tests_properties(cli/interrupt PROPERTIES RUN_SERIAL TRUE)
endif()

# The MPI suite's solving scripts a second time on the guarded backend (docs/gpu.md):
# tests/data/with_backend.sh adds --backend guarded to every `shardlp solve`; it is
# copied next to shardlp so that scripts find the build's other programs beside it.
# Scripts left out: gen_mpi, shard_mpi (no solve), presolve_grid, user_comm (they
# drive unit-test programs through the C API), watchdog (it finds ranks by the
# binary's command line).
set(SLP_GUARDED_SUITE checkpoint comm_support failures grid_shapes shard_solve)
if(NOT SLP_SANITIZE)
  file(COPY ${CMAKE_SOURCE_DIR}/tests/data/with_backend.sh DESTINATION ${CMAKE_BINARY_DIR}
       FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
       WORLD_READ WORLD_EXECUTE)
  foreach(name ${SLP_GUARDED_SUITE})
    add_test(NAME mpi-guarded/${name}
             COMMAND bash ${CMAKE_SOURCE_DIR}/tests/mpi/${name}.sh ${CMAKE_BINARY_DIR}/with_backend.sh
                     ${CMAKE_SOURCE_DIR} ${SLP_SHARED_DIR})
    set_tests_properties(mpi-guarded/${name} PROPERTIES LABELS mpi TIMEOUT 900
      ENVIRONMENT "SLP_REAL_BIN=$<TARGET_FILE:shardlp>;SLP_TEST_BACKEND=guarded")
  endforeach()
endif()
