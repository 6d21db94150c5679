#pragma once
// What the CUDA methods read from the machine's graph: which vertices are
// CUDA GPUs, whether two GPUs have a path peer access can use, and the PCIe
// link state to record. No CUDA: applicability is decided from the graph and
// confirmed by the driver only at prepare().
#include <optional>
#include <string>
#include <vector>

#include "core/graph.hpp"
#include "core/peer_path.hpp"
#include "methods/characterizer.hpp"

namespace hwcomm::cuda {

// CUDA ordinal of a GPU vertex; -1 when the vertex is not a GPU CUDA reported.
int cuda_ordinal(const Vertex& v);
// "" when `v` is a GPU visible to CUDA, else why not.
std::string why_not_cuda_gpu(const Vertex& v);
// Every GPU visible to CUDA, in CUDA ordinal order.
std::vector<const Vertex*> cuda_gpus(const Graph& graph);
// "" when `v` is a NUMA node with memory, else why not.
std::string why_not_host_node(const Vertex& v);

// Peer paths and PCIe roots from the graph alone (core/peer_path.hpp, shared
// with the transfer-set checks of builds without CUDA).
using ::hwcomm::pcie_root_of;
using ::hwcomm::peer_path_in_graph;
using ::hwcomm::PeerPath;

// The PCIe link between a GPU and its parent, as discovery saw it.
std::optional<PcieLink> gpu_pcie_link(const Graph& graph, const Vertex& gpu);

// Parameter sets shared by several methods.
inline const std::vector<std::string>& host_memory_kinds() {
    static const std::vector<std::string> kinds{"pageable", "pinned", "registered", "wc", "huge"};
    return kinds;
}
// {"peer":"on"} (when the graph allows it) and {"peer":"off"}.
std::vector<ParamSet> peer_parameter_sets(const Graph& graph, const Vertex& a, const Vertex& b);
// One set per host memory kind, each with "numa" = the host node's OS index.
std::vector<ParamSet> host_parameter_sets(const Vertex& numa, const std::vector<std::string>& kinds);

// Reads a parameter, throwing UsageError naming the method when it is
// missing or not one of `allowed`.
std::string param_or_throw(const ParamSet& params, const std::string& key, const std::vector<std::string>& allowed,
                           const std::string& method);

}  // namespace hwcomm::cuda
