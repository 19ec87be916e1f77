# The CUDA backend (src/backend/cuda, docs/gpu.md). Included at the end of
# CMakeLists.txt, after shardlp_core and shardlp_shared exist.
#
# Built whenever SLP_CUDA is ON and a CUDA compiler is found, GPU or not, so CI
# compiles and links it on machines without a device. Without nvcc nothing
# changes: src/backend/backend_cuda_stub.c keeps answering SLP_ERR_UNSUPPORTED.
# Sanitizer builds skip CUDA (the CUDA runtime and ASan's shadow memory do not
# mix; those builds only run the CPU unit tests).
#
# Targets: sm_90 machine code (H100/H200) plus compute_75 PTX, which the driver
# JIT-compiles on any GPU CUDA 13 supports (override with
# -DCMAKE_CUDA_ARCHITECTURES=...). SLP_HAVE_CUDA (and SLP_HAVE_NCCL when NCCL is
# found) are defined for the libraries and everything linking them.

set(SLP_HAVE_CUDA OFF)
set(SLP_HAVE_NCCL OFF)
if(SLP_CUDA AND SLP_SANITIZE)
  message(STATUS "CUDA backend: skipped in the sanitizer build")
elseif(SLP_CUDA)
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES "90-real;75-virtual")
    endif()
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    set(SLP_HAVE_CUDA ON)
  else()
    message(STATUS "CUDA backend: no CUDA compiler found, building without it")
  endif()
endif()

if(SLP_HAVE_CUDA)
  set(CMAKE_CUDA_STANDARD 17)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  # cuSPARSE and NCCL are not linked: the backend loads them when it is created
  # (src/backend/cuda/runtime_libs.h), so CPU runs do not map them.
  set(SLP_CUDA_SOURCES ${CMAKE_SOURCE_DIR}/src/backend/cuda/backend_cuda.cu
      ${CMAKE_SOURCE_DIR}/src/backend/cuda/runtime_libs.cu)
  set(SLP_CUDA_LIBS CUDA::cudart ${CMAKE_DL_LIBS})

  find_path(SLP_NCCL_INCLUDE_DIR nccl.h HINTS ${CUDAToolkit_INCLUDE_DIRS} ENV NCCL_HOME
            PATH_SUFFIXES include)
  find_library(SLP_NCCL_LIBRARY nccl HINTS ${CUDAToolkit_LIBRARY_DIR} ENV NCCL_HOME
               PATH_SUFFIXES lib lib64)
  if(SLP_NCCL_INCLUDE_DIR AND SLP_NCCL_LIBRARY)
    set(SLP_HAVE_NCCL ON)
    list(APPEND SLP_CUDA_SOURCES ${CMAKE_SOURCE_DIR}/src/backend/cuda/comm_nccl.cu)
  endif()

  # One set of objects, linked into both the static core and libshardlp.so.
  add_library(shardlp_cuda OBJECT ${SLP_CUDA_SOURCES})
  target_include_directories(shardlp_cuda PRIVATE ${CMAKE_SOURCE_DIR}/src ${CMAKE_SOURCE_DIR}/include)
  if(SLP_HAVE_NCCL)
    target_include_directories(shardlp_cuda PRIVATE ${SLP_NCCL_INCLUDE_DIR})
    target_compile_definitions(shardlp_cuda PRIVATE SLP_HAVE_NCCL=1)
  endif()
  target_link_libraries(shardlp_cuda PRIVATE CUDA::cudart)
  # Never --use_fast_math: the method relies on inf/NaN semantics (as for C).
  # --fmad=false: no contraction of a * b + c into FMA, so the element-wise
  # kernels round exactly like the CPU loops over the same kernels.h code (the
  # kernels are memory-bound; FMA buys nothing measurable).
  target_compile_options(shardlp_cuda PRIVATE
    $<$<COMPILE_LANGUAGE:CUDA>:--fmad=false -Xcompiler=-Wall,-Wextra,-Wno-unused-parameter>)
  set_target_properties(shardlp_cuda PROPERTIES POSITION_INDEPENDENT_CODE ON)

  foreach(lib shardlp_core shardlp_shared)
    if(TARGET ${lib})
      target_sources(${lib} PRIVATE $<TARGET_OBJECTS:shardlp_cuda>)
      # stdc++: the C++ runtime the CUDA objects use (a C program linking libshardlp.a
      # through the CMake package needs it named)
      target_link_libraries(${lib} PUBLIC ${SLP_CUDA_LIBS} stdc++)
      target_compile_definitions(${lib} PUBLIC SLP_HAVE_CUDA=1)
      if(SLP_HAVE_NCCL)
        target_compile_definitions(${lib} PUBLIC SLP_HAVE_NCCL=1)
      endif()
    endif()
  endforeach()
  # Targets made before enable_language(CUDA) have no CUDA_ARCHITECTURES (CMP0104);
  # give every target of this directory the same list.
  get_property(slp_targets DIRECTORY ${CMAKE_SOURCE_DIR} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(t ${slp_targets})
    set_property(TARGET ${t} PROPERTY CUDA_ARCHITECTURES ${CMAKE_CUDA_ARCHITECTURES})
  endforeach()
  message(STATUS "CUDA backend: ON (nvcc ${CMAKE_CUDA_COMPILER_VERSION}, architectures "
                 "${CMAKE_CUDA_ARCHITECTURES}, NCCL ${SLP_HAVE_NCCL})")
endif()
