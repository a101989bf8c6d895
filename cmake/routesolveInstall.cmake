# Install rules and the CMake package: `cmake --install build --prefix P` installs the public
# headers (P/include/routesolve/...), the libraries, the `routesolve` tool, the C API and
# P/lib/cmake/routesolve/routesolveConfig.cmake + its version file, exporting
#   routesolve::routesolve  the whole C++ API (problem, solve, validate, matrices, io)
#   routesolve::core, ::network, ::io, ::search, ::cpu, ::cuda, ::dispatch  the layers
#   routesolve::c           the C API (shared library, routesolve/routesolve_c.h)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(routesolve_layers core network io search cpu cuda dispatch)
set(routesolve_export_targets routesolve)
foreach(layer IN LISTS routesolve_layers)
  list(APPEND routesolve_export_targets routesolve_${layer})
endforeach()

# The layers' CMakeLists name their include folder as a plain source path (enough inside the
# build). For the export, each such path holds in the build tree only, and the installed
# package's include folder replaces it. Targets linked privately that carry no link items of
# their own (the warning flags, and the CUDA host twin's object library, whose objects are
# already inside libroutesolve_cuda.a) are dropped from the link interface: an installed
# static library does not need them.
function(routesolve_prepare_export target export_name)
  get_target_property(dirs ${target} INTERFACE_INCLUDE_DIRECTORIES)
  set(wrapped "")
  if(dirs)
    foreach(dir IN LISTS dirs)
      if(dir MATCHES "^\\$<")
        list(APPEND wrapped "${dir}")
      else()
        list(APPEND wrapped "$<BUILD_INTERFACE:${dir}>")
      endif()
    endforeach()
  endif()
  list(APPEND wrapped "$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>")
  set_target_properties(${target} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${wrapped}" EXPORT_NAME ${export_name})

  get_target_property(links ${target} INTERFACE_LINK_LIBRARIES)
  if(links)
    set(kept "")
    foreach(item IN LISTS links)
      if(item MATCHES "^\\$<LINK_ONLY:([A-Za-z0-9_:]+)>$")
        set(dep "${CMAKE_MATCH_1}")
        if(TARGET ${dep} AND NOT dep IN_LIST routesolve_export_targets)
          get_target_property(dep_type ${dep} TYPE)
          if(dep_type STREQUAL "OBJECT_LIBRARY" OR dep_type STREQUAL "INTERFACE_LIBRARY")
            get_target_property(dep_imported ${dep} IMPORTED)
            if(NOT dep_imported)
              continue()
            endif()
          endif()
        endif()
      endif()
      list(APPEND kept "${item}")
    endforeach()
    set_target_properties(${target} PROPERTIES INTERFACE_LINK_LIBRARIES "${kept}")
  endif()
endfunction()

foreach(layer IN LISTS routesolve_layers)
  routesolve_prepare_export(routesolve_${layer} ${layer})
endforeach()
set_target_properties(routesolve PROPERTIES EXPORT_NAME routesolve)

install(TARGETS ${routesolve_export_targets}
  EXPORT routesolveTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT devel
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
if(TARGET routesolve_c)
  routesolve_prepare_export(routesolve_c c)
  install(TARGETS routesolve_c
    EXPORT routesolveTargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT devel
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
  install(FILES ${PROJECT_SOURCE_DIR}/capi/include/routesolve/routesolve_c.h
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/routesolve COMPONENT devel)
endif()
install(TARGETS routesolve_app RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)

foreach(folder core network io search cpu_backend cuda_backend dispatch)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${folder}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT devel)
endforeach()
install(FILES ${PROJECT_BINARY_DIR}/generated/include/routesolve/version.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/routesolve COMPONENT devel)

set(routesolve_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/routesolve)
install(EXPORT routesolveTargets NAMESPACE routesolve:: DESTINATION ${routesolve_cmake_dir} COMPONENT devel)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/routesolveConfig.cmake.in
  ${PROJECT_BINARY_DIR}/routesolveConfig.cmake INSTALL_DESTINATION ${routesolve_cmake_dir})
# 0.x: a minor version may change the API, so 0.2 accepts 0.2.x only.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/routesolveConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/routesolveConfig.cmake ${PROJECT_BINARY_DIR}/routesolveConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/FindGLPK.cmake
        DESTINATION ${routesolve_cmake_dir} COMPONENT devel)
