#pragma once
// Paths through the machine graph: the route data takes between two vertices,
// its bottleneck theoretical bandwidth, and the class `nvidia-smi topo -m`
// gives the pair (X, NV#, PIX, PXB, PHB, NODE, SYS).
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/graph.hpp"

namespace hwcomm {

enum class PathClass { Self, NvLink, Pix, Pxb, Phb, Node, Sys };

struct PathClassification {
    PathClass kind = PathClass::Sys;
    int nvlinks = 0;                      // bonded links for NvLink
    std::string label() const;            // "X", "NV18", "PIX", ...
};

struct Path {
    std::vector<std::string> vertices;    // from ... to
    std::vector<std::size_t> edges;       // graph.edges() indexes; edges[i] joins vertices[i] and vertices[i+1]
    double bottleneck_gbps = 0;           // smallest stated rate on the way; 0 when no edge states one
};

// The route data takes: NVLink wherever it reaches (peer access over NVLink,
// POWER CPUs over NVLink), otherwise the PCIe tree, host bridges, NUMA nodes and
// the SMP interconnect. Only packages, NUMA nodes, bridges and switches relay.
// nullopt when the two are not connected. Throws std::invalid_argument for an
// unknown id.
std::optional<Path> find_path(const Graph& graph, const std::string& from, const std::string& to);

// nvidia-smi topo -m semantics:
//   X     the same device
//   NV#   a bonded set of # NVLinks, directly or through NVSwitches (# = the
//         smaller side's link count)
//   PIX   at most one PCIe bridge (one switch: its upstream and downstream ports count once)
//   PXB   several bridges, no host bridge
//   PHB   through a PCIe host bridge (devices below the same host bridge, or a
//         device and its local CPU/NUMA node)
//   NODE  between host bridges within one NUMA node
//   SYS   across the SMP interconnect between NUMA nodes
// Throws std::invalid_argument for an unknown id.
PathClassification classify_path(const Graph& graph, const std::string& a, const std::string& b);

// The host bridge above a PCI vertex (through the controller for disks and
// NICs); "" when the vertex is not below one.
std::string host_bridge_of(const Graph& graph, const std::string& id);
// NUMA node ids local to a vertex (its own, its package's, its host bridge's,
// or a GPU's NUMA affinity), sorted.
std::vector<std::string> numa_nodes_of(const Graph& graph, const std::string& id);

}  // namespace hwcomm
