# Test registration. Unit tests: every tests/unit/test_*.c is one executable.
# Command-line and MPI tests: every tests/cli/*.sh and tests/mpi/*.sh is run with
# the binary's path, the repository root and the shared corpus directory.
# The corpus: the project's full one beside the repository where it is, else the test
# suite's own copy of the files it needs (tests/data/corpus; checks that need more print
# "skipped: corpus not found" and make test counts them, docs/testing.md).
if(EXISTS "${CMAKE_SOURCE_DIR}/../shared/lp/INDEX.tsv")
  set(SLP_DEFAULT_CORPUS "${CMAKE_SOURCE_DIR}/../shared")
else()
  set(SLP_DEFAULT_CORPUS "${CMAKE_SOURCE_DIR}/tests/data/corpus")
endif()
set(SLP_SHARED_DIR "${SLP_DEFAULT_CORPUS}" CACHE PATH "corpus directory with lp/ and mps-edge/")
set(SLP_SKIP_LOG "${CMAKE_BINARY_DIR}/skipped.log")

file(GLOB SLP_UNIT_TESTS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/unit/test_*.c)
foreach(src ${SLP_UNIT_TESTS})
  get_filename_component(name ${src} NAME_WE)
  add_executable(${name} ${src})
  target_compile_options(${name} PRIVATE ${SLP_WARNINGS})
  target_link_libraries(${name} PRIVATE shardlp_core)
  if(SLP_ZSTD_INCLUDE_DIR AND SLP_ZSTD_LIBRARY) # tests that write zstd (test_text_at)
    target_compile_definitions(${name} PRIVATE SLP_HAVE_ZSTD=1)
  endif()
  add_test(NAME unit/${name} COMMAND ${name} ${SLP_SHARED_DIR} ${CMAKE_SOURCE_DIR})
  set_tests_properties(unit/${name} PROPERTIES LABELS unit TIMEOUT 600)
endforeach()

# Open MPI's point-to-point layer for the test launches: ob1 over shared memory. The
# default (UCX where Open MPI was built with it) doubles the start of every job on one
# machine (0.45 s against 0.21 s for 4 ranks, docs/testing.md), and the suite starts
# hundreds. tests/mpi/multinode.sh and tests/mpi/user_comm.sh keep Open MPI's default.
set(SLP_TEST_MPI_ENV "OMPI_MCA_pml=ob1")

# Script tests are skipped in sanitizer builds (those only run the unit tests).
if(NOT SLP_SANITIZE)
  file(GLOB SLP_SCRIPT_TESTS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/cli/*.sh ${CMAKE_SOURCE_DIR}/tests/mpi/*.sh)
  foreach(script ${SLP_SCRIPT_TESTS})
    get_filename_component(name ${script} NAME_WE)
    get_filename_component(dir ${script} DIRECTORY)
    get_filename_component(kind ${dir} NAME)
    add_test(NAME ${kind}/${name}
             COMMAND bash ${script} $<TARGET_FILE:shardlp> ${CMAKE_SOURCE_DIR} ${SLP_SHARED_DIR})
    set_tests_properties(${kind}/${name} PROPERTIES LABELS ${kind} TIMEOUT 900
      ENVIRONMENT "${SLP_TEST_MPI_ENV}")
    # A script that starts MPI jobs (4 ranks on this 2-core machine) takes both cores, so
    # that ctest -j2 never runs two such jobs at once (busy-polling ranks on shared cores
    # slow each other down many times over).
    file(READ ${script} body)
    if(body MATCHES "mpirun")
      set_tests_properties(${kind}/${name} PROPERTIES PROCESSORS 2)
    endif()
  endforeach()
endif()

# Timing-sensitive scripts (a signal must end the process within 2 s) run alone, so that
# a concurrent 4-rank test cannot starve them of the machine's cores.
if(NOT SLP_SANITIZE)
  set_tests_properties(cli/interrupt PROPERTIES RUN_SERIAL TRUE)
  set_tests_properties(mpi/multinode mpi/user_comm PROPERTIES ENVIRONMENT "")
endif()

# MPI scripts a second time on the guarded backend (docs/gpu.md):
# tests/data/with_backend.sh adds --backend guarded to every `shardlp solve`; it is
# copied next to shardlp so that scripts find the build's other programs beside it.
# In make test: the error paths (failures) and shard input (shard_solve); each feature's
# agreement with the CPU backend (every grid shape and plan, presolve, polishing,
# solution files, checkpoints) is mpi/guarded_agrees.sh. The whole accuracy suites on
# the guarded backend (checkpoint, comm_support, grid_shapes) are the label
# guarded-full: `make test-extended`, which .ci/run runs too.
# Scripts never run this way: gen_mpi, shard_mpi (no solve), presolve_grid, user_comm
# (they drive unit-test programs through the C API), watchdog (it finds ranks by the
# binary's command line).
set(SLP_GUARDED_SUITE failures shard_solve)
set(SLP_GUARDED_FULL checkpoint comm_support grid_shapes)
if(NOT SLP_SANITIZE)
  file(COPY ${CMAKE_SOURCE_DIR}/tests/data/with_backend.sh DESTINATION ${CMAKE_BINARY_DIR}
       FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
       WORLD_READ WORLD_EXECUTE)
  foreach(name ${SLP_GUARDED_SUITE} ${SLP_GUARDED_FULL})
    set(label mpi)
    if(name IN_LIST SLP_GUARDED_FULL)
      set(label guarded-full)
    endif()
    add_test(NAME mpi-guarded/${name}
             COMMAND bash ${CMAKE_SOURCE_DIR}/tests/mpi/${name}.sh ${CMAKE_BINARY_DIR}/with_backend.sh
                     ${CMAKE_SOURCE_DIR} ${SLP_SHARED_DIR})
    set_tests_properties(mpi-guarded/${name} PROPERTIES LABELS ${label} TIMEOUT 900 PROCESSORS 2
      ENVIRONMENT "SLP_REAL_BIN=$<TARGET_FILE:shardlp>;SLP_TEST_BACKEND=guarded;${SLP_TEST_MPI_ENV}")
  endforeach()
  # Building the Python wheel in a fresh venv (minutes of pip and CMake): the label
  # packaging, `make test-packaging`, also run by .ci/run.
  set_tests_properties(cli/python_package PROPERTIES LABELS packaging)
endif()

# The long scripts (15-80 s each here: the Python interfaces, the CPU/guarded agreement,
# the communication plans, gen under MPI, checkpoints, output-file safety, presolve on
# MPI grids, the stopped-rank watchdog; 6-10 s: the checker under MPI and the guarded
# backend's error and shard-input runs) carry the label slow as well: `make test-slow`,
# which .ci/run runs; make test leaves them out to stay within about 4 minutes
# (docs/testing.md says which check is where).
set(SLP_SLOW_SCRIPTS cli/python_interfaces cli/outputs mpi/guarded_agrees mpi/comm_support
    mpi/gen_mpi mpi/checkpoint mpi/presolve_grid mpi/watchdog mpi/check_mpi mpi/matrix_values
    mpi-guarded/failures mpi-guarded/shard_solve)
if(NOT SLP_SANITIZE)
  foreach(name ${SLP_SLOW_SCRIPTS})
    get_test_property(${name} LABELS labels)
    set_tests_properties(${name} PROPERTIES LABELS "${labels};slow")
  endforeach()
endif()
