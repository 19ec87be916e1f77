# `cmake --install BUILD [--prefix P]` (and `make install PREFIX=P`), docs/install.md:
#   bin/shardlp, include/shardlp.h, lib/libshardlp.so (+ soname links), lib/libshardlp.a,
#   lib/cmake/shardlp/ (find_package(shardlp): imported targets shardlp::shardlp, the
#   shared library, and shardlp::shardlp_static), lib/pkgconfig/shardlp.pc.
# SLP_PYTHON_PACKAGE (set by the Python build, python/pyproject.toml) installs only the
# shared library and the program, into the package directory (the wheel's `shardlp`
# command runs the program, python/shardlp/_cli.py).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

option(SLP_PYTHON_PACKAGE "Install libshardlp.so and the program alone, for the Python wheel" OFF)
if(SLP_PYTHON_PACKAGE)
  # one file under the name the loader looks for (python/shardlp/_lib.py)
  install(FILES $<TARGET_FILE:shardlp_shared> DESTINATION shardlp RENAME libshardlp.so)
  install(PROGRAMS $<TARGET_FILE:shardlp> DESTINATION shardlp/bin)
  return()
endif()

set_target_properties(shardlp_core PROPERTIES OUTPUT_NAME shardlp EXPORT_NAME shardlp_static)
set_target_properties(shardlp_shared PROPERTIES EXPORT_NAME shardlp)
install(TARGETS shardlp RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS shardlp_shared shardlp_core EXPORT shardlpTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${CMAKE_SOURCE_DIR}/include/shardlp.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(SLP_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/shardlp)
install(EXPORT shardlpTargets NAMESPACE shardlp:: DESTINATION ${SLP_CMAKE_DIR})
set(SLP_CONFIG_OPENMP ${OpenMP_C_FOUND})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/shardlpConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/shardlpConfig.cmake
                              INSTALL_DESTINATION ${SLP_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/shardlpConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/shardlpConfig.cmake ${CMAKE_BINARY_DIR}/shardlpConfigVersion.cmake
        DESTINATION ${SLP_CMAKE_DIR})

configure_file(${CMAKE_SOURCE_DIR}/cmake/shardlp.pc.in ${CMAKE_BINARY_DIR}/shardlp.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/shardlp.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
