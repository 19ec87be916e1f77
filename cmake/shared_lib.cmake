# The shared library libshardlp.so (public API: include/shardlp.h) used by the
# Python package (python/, ctypes) and by C programs, plus the C example that
# the test suite builds and runs. Included at the end of CMakeLists.txt.
add_library(shardlp_shared SHARED ${SLP_SOURCES})
target_include_directories(shardlp_shared PUBLIC $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/src>
                           $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/include> $<INSTALL_INTERFACE:include>)
target_compile_options(shardlp_shared PRIVATE ${SLP_WARNINGS})
target_link_libraries(shardlp_shared PUBLIC MPI::MPI_C ZLIB::ZLIB BZip2::BZip2 LibLZMA::LibLZMA
                      Threads::Threads ${MATH_LIB})
if(SLP_OPENMP AND OpenMP_C_FOUND)
  target_link_libraries(shardlp_shared PUBLIC OpenMP::OpenMP_C)
  target_compile_definitions(shardlp_shared PUBLIC SLP_HAVE_OPENMP=1)
endif()
if(SLP_ZSTD_INCLUDE_DIR AND SLP_ZSTD_LIBRARY)
  target_include_directories(shardlp_shared PRIVATE ${SLP_ZSTD_INCLUDE_DIR})
  target_link_libraries(shardlp_shared PUBLIC ${SLP_ZSTD_LIBRARY})
  target_compile_definitions(shardlp_shared PRIVATE SLP_HAVE_ZSTD=1)
endif()
set_target_properties(shardlp_shared PROPERTIES
  OUTPUT_NAME shardlp
  VERSION ${PROJECT_VERSION}
  SOVERSION ${PROJECT_VERSION_MAJOR}
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})

# examples/lp_from_arrays.c: builds a small LP from CSC arrays and solves it, and
# solves an MPS file given on the command line. Run by the tests.
add_executable(example_c_api ${CMAKE_SOURCE_DIR}/examples/lp_from_arrays.c)
target_compile_options(example_c_api PRIVATE ${SLP_WARNINGS})
target_include_directories(example_c_api PRIVATE ${CMAKE_SOURCE_DIR}/include)
target_link_libraries(example_c_api PRIVATE shardlp_shared)
set_target_properties(example_c_api PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})
add_test(NAME examples/c_api COMMAND example_c_api ${CMAKE_SOURCE_DIR}/examples/data/afiro.mps)
set_tests_properties(examples/c_api PROPERTIES LABELS cli TIMEOUT 300)

# examples/user_communicator.c: solving on a sub-communicator of a program that starts
# MPI itself (run by tests/mpi/user_comm.sh under mpirun).
add_executable(example_user_comm ${CMAKE_SOURCE_DIR}/examples/user_communicator.c)
target_compile_options(example_user_comm PRIVATE ${SLP_WARNINGS})
target_include_directories(example_user_comm PRIVATE ${CMAKE_SOURCE_DIR}/include)
target_link_libraries(example_user_comm PRIVATE shardlp_shared MPI::MPI_C m)
set_target_properties(example_user_comm PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})

# examples/solve_options.c: the C API driven by NAME=VALUE options (MPS or shards);
# python/tests/test_front_ends.py compares it with the command line and Python.
add_executable(example_solve_options ${CMAKE_SOURCE_DIR}/examples/solve_options.c)
target_compile_options(example_solve_options PRIVATE ${SLP_WARNINGS})
target_include_directories(example_solve_options PRIVATE ${CMAKE_SOURCE_DIR}/include)
target_link_libraries(example_solve_options PRIVATE shardlp_shared)
set_target_properties(example_solve_options PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})
