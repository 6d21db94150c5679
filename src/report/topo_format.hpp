#pragma once
// Short human descriptions of vertices and edges, shared by the tree and DOT printers.
#include <string>
#include <vector>

#include "core/graph.hpp"
#include "core/paths.hpp"
#include "measure/link_text.hpp"

namespace hwcomm {

// Edges and rates: describe_edge(e, EdgeText::State), format_gbps, format_rate (measure/link_text.hpp).
// "NVIDIA H200 0000:00:06.0 141 GiB", "NUMA node 0 64.0 GiB cpus 0-31"...
// brief (the tree): no UUID, NVML index only where it differs from CUDA's.
std::string describe_vertex(const Vertex& v, bool brief = false);
// "nvswitch0..5, gpu8": ids with a common prefix and consecutive numbers folded.
std::string compress_ids(const std::vector<std::string>& ids);
// "150.00 GB/s per direction", or "unknown (no rate known for pci:... -- gpu0, PCIe)".
std::string describe_bottleneck(const Graph& graph, const Path& path);

}  // namespace hwcomm
