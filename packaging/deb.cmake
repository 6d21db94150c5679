# `cpack` in a build dir writes hwcomm_<version>_<arch>.deb. Dependencies are
# Debian/Ubuntu package names: dpkg-shlibdeps derives them (with versions)
# from the libraries the binary links; without it, the names below, which hold
# on Debian 12 and Ubuntu 24.04. The CUDA runtime is linked in statically and
# NVML is dlopen'ed, so the package needs no CUDA package: only the driver,
# which a GPU node has.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME hwcomm)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "hwcomm")
set(CPACK_PACKAGE_CONTACT "hwcomm maintainers <hwcomm@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "maps and measures every data path of a GPU node")
set(CPACK_PACKAGE_DESCRIPTION
    "hwcomm discovers a node as a graph (sockets, NUMA nodes, PCIe, GPUs, NVSwitches, NICs, disks) and measures bandwidth against transfer size for every transfer method and pair of endpoints, into one JSON results file that its analysis, report and export commands read.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://example.invalid/hwcomm")
find_program(HWCOMM_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(HWCOMM_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6, libstdc++6, libgcc-s1, libgomp1, libhwloc15 (>= 2.9), zlib1g")
endif()
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "bash-completion")
include(CPack)
