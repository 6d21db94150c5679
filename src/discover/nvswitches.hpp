#pragma once
// NVSwitches as named vertices: stable ids nvswitch0..N (PCI order), and one
// fabric for switches that hwloc or NVML show without the trunks between them
// (a DGX-2's two baseboards: each GPU reaches only its own board's switches).
#include "core/graph.hpp"

namespace hwcomm {

// Renames every NvSwitch vertex nvswitch<K>, K its rank by PCI address.
void assign_nvswitch_ids(Graph& graph);

// When the switches fall into groups that no NVLink edge joins, adds (or
// reuses) the fabric vertex, joins every switch to it by an internal edge (a
// trunk no source shows) and says so in a note. Returns the number of groups.
int join_nvswitch_fabric(Graph& graph);

}  // namespace hwcomm
