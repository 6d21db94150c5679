#pragma once
// Short human descriptions of vertices and edges, shared by the tree and DOT printers.
#include <string>
#include <vector>

#include "core/graph.hpp"
#include "core/paths.hpp"

namespace hwcomm {

// "15.75" / "478.125": two or three decimals, no unit.
std::string format_gbps(double gbps);
// "PCIe Gen3 x16 15.75 GB/s (max Gen3 x16 15.75 GB/s)", "NVLink 4.0 x18 478.13 GB/s",
// "SMP distance 20", "internal"...
std::string describe_edge(const Edge& e);
// "NVIDIA H200 0000:00:06.0 141 GiB", "NUMA node 0 64.0 GiB cpus 0-31"...
// brief (the tree): no UUID, NVML index only where it differs from CUDA's.
std::string describe_vertex(const Vertex& v, bool brief = false);
// "nvswitch0..5, gpu8": ids with a common prefix and consecutive numbers folded.
std::string compress_ids(const std::vector<std::string>& ids);
// "150.00 GB/s per direction", or "unknown (no rate known for pci:... -- gpu0, PCIe)".
std::string describe_bottleneck(const Graph& graph, const Path& path);
// A GB/s figure, or "unknown" for 0 (a rate no source gives).
std::string format_rate(double gbps);
// Bytes -> "64.0 GiB".
std::string format_bytes(std::uint64_t bytes);

}  // namespace hwcomm
