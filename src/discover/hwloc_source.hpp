#pragma once
// Turns a loaded hwloc topology into the machine graph: packages, NUMA nodes,
// the PCIe tree (host bridges, bridges, devices, GPUs), disks and NICs, the SMP
// interconnect (NUMA distance matrix), NVLink (NVLinkBandwidth matrix) and
// XGMI (XGMIBandwidth matrix).
#include <map>
#include <string>

#include <hwloc.h>

#include "core/graph.hpp"

namespace hwcomm {

// hwloc object -> vertex id, so that distance matrices can name vertices.
using HwlocObjectIds = std::map<const hwloc_obj*, std::string>;

// GPUs get the temporary id "pci:<bus id>"; assign_gpu_ids() renames them.
Graph graph_from_hwloc(hwloc_topology_t topology);

// Parts of graph_from_hwloc (hwloc_distances.cpp).
void add_smp_edges(Graph& graph, hwloc_topology_t topology);
void add_nvlink_from_distances(Graph& graph, hwloc_topology_t topology, const HwlocObjectIds& ids);
void add_xgmi_from_distances(Graph& graph, hwloc_topology_t topology, const HwlocObjectIds& ids);
// NUMA nodes of GPU memory (hwloc subtype GPUMemory), hwloc_gpu_memory.cpp.
void mark_gpu_memory(hwloc_obj_t node, Vertex& v);
void link_gpu_memory(Graph& graph);

// "Tesla P100-SXM2-16GB" -> "1.0"; "" when the model does not tell. hwloc's
// NVLinkBandwidth matrix only gives bytes/s, the link count needs the version.
std::string nvlink_version_for_model(const std::string& model);

}  // namespace hwcomm
