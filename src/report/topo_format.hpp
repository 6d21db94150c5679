#pragma once
// Short human descriptions of vertices and edges, shared by the tree and DOT printers.
#include <string>

#include "core/graph.hpp"

namespace hwcomm {

// "15.75" / "478.125": two or three decimals, no unit.
std::string format_gbps(double gbps);
// "PCIe Gen3 x16 15.75 GB/s (max Gen3 x16 15.75 GB/s)", "NVLink 4.0 x18 478.13 GB/s",
// "SMP distance 20", "internal"...
std::string describe_edge(const Edge& e);
// "NVIDIA H200 0000:00:06.0 141 GiB", "NUMA node 0 62.8 GiB cpus 0-31"...
std::string describe_vertex(const Vertex& v);

}  // namespace hwcomm
