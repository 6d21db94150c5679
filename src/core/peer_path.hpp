#pragma once
// Whether two GPUs have a path peer access can use, from the graph alone: the
// CUDA methods plan peer copies with it, and a transfer-set file is checked
// against it before anything is measured (also in builds without CUDA).
#include <string>

#include "core/graph.hpp"

namespace hwcomm {

// The top of the PCIe tree above `id` (a HostBridge id), "" when none.
std::string pcie_root_of(const Graph& graph, const std::string& id);

struct PeerPath {
    bool possible = false;
    std::string via;  // "nvlink", "nvlink via nvswitch-fabric", "pcie root pci:...", or why not
};
// Peer access is plausible when the GPUs share an NVLink edge, NVLink edges to
// one NVSwitch (or hidden fabric), or the same PCIe root; it is ruled out when
// discovery recorded that CUDA denies it (attr "peer_access_to_cudaN" = "no").
PeerPath peer_path_in_graph(const Graph& graph, const Vertex& a, const Vertex& b);

}  // namespace hwcomm
