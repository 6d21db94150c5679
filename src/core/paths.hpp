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

enum class PathClass { Self, NvLink, Xgmi, Pix, Pxb, Phb, Node, Sys };

struct PathClassification {
    PathClass kind = PathClass::Sys;
    int nvlinks = 0;                      // bonded links for NvLink
    std::string label() const;            // "X", "NV18", "PIX", ...
};

struct Path {
    std::vector<std::string> vertices;    // from ... to
    std::vector<std::size_t> edges;       // graph.edges() indexes; edges[i] joins vertices[i] and vertices[i+1]
    // Smallest rate on the way; 0 (unknown) when a link on the way has no
    // known rate (unknown_edge names it) or no link states one. Between two
    // GPUs over NVSwitches: what their bonded links carry (nvlink_between).
    double bottleneck_gbps = 0;
    std::optional<std::size_t> unknown_edge;  // first link whose rate no source gives
    bool crosses_smp = false;             // the SMP interconnect's rate is known from no source: not counted
    int nvlinks = 0;                      // bonded NVLinks between two GPUs (NV#), 0 otherwise
};

// NVLinks between two vertices: a direct bond, plus per NVSwitch both reach
// the smaller of their two bonds into it (summed over the shared switches);
// two GPUs on different switches of one fabric (trunks between the switches)
// get the smaller of their totals into the fabric.
struct NvLinkReach {
    int links = 0;
    double gbps = 0;                      // per direction; 0 when a bond's rate is unknown
    std::vector<std::string> switches;    // shared switches
    bool through_trunks = false;
};
NvLinkReach nvlink_between(const Graph& graph, const std::string& a, const std::string& b);

// The route data takes: NVLink wherever it reaches (peer access over NVLink,
// POWER CPUs over NVLink), otherwise the PCIe tree, host bridges, NUMA nodes and
// the SMP interconnect. Only packages, NUMA nodes, bridges and switches relay;
// an NVSwitch relays NVLink to NVLink only (its PCIe function manages it).
// nullopt when the two are not connected. Throws std::invalid_argument for an
// unknown id.
std::optional<Path> find_path(const Graph& graph, const std::string& from, const std::string& to);

// nvidia-smi topo -m semantics:
//   X     the same device
//   NV#   a bonded set of # NVLinks, directly or through NVSwitches (# = the
//         smaller side's link count)
//   XGMI  AMD GPUs joined by an Infinity Fabric link (as rocm-smi --showtopotype)
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
