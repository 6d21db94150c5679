#pragma once
// Loads an hwloc topology from this machine, an XML export or a saved sysfs
// tree, with every I/O object kept (hwloc drops PCI and OS devices unless the
// I/O type filter is set before loading).
#include <string>

#include "platform/hwloc_topology.hpp"

namespace hwcomm {

// Exactly one of xml/fsroot may be non-empty; both empty = this machine.
// Throws UsageError naming the file for a missing, unreadable or malformed input.
HwlocTopology load_hwloc_topology(const std::string& xml, const std::string& fsroot);

}  // namespace hwcomm
