#pragma once
// The GPU/NIC matrix in `nvidia-smi topo -m`'s layout: GPUs in NVML (PCI)
// order as GPU0.., RDMA NICs as NIC0.., cells X/NV#/PIX/PXB/PHB/NODE/SYS, then
// CPU Affinity, NUMA Affinity and GPU NUMA ID for the GPU rows.
#include <ostream>
#include <string>
#include <vector>

#include "core/graph.hpp"

namespace hwcomm {

struct TopoMatrix {
    std::vector<std::string> labels;               // "GPU0", ..., "NIC0", ...
    std::vector<std::string> ids;                  // the vertex each label stands for
    std::vector<std::vector<std::string>> cells;   // cells[row][column]
    std::vector<std::string> cpu_affinity;         // per row; "" for NICs
    std::vector<std::string> numa_affinity;
    std::vector<std::string> gpu_numa_id;
    std::vector<std::string> nic_names;            // NIC legend: "mlx5_0"
    std::size_t gpu_count = 0;
};

TopoMatrix build_topo_matrix(const Graph& graph);
// Tab-separated like nvidia-smi (without its underline escape codes), then the legend.
void print_topo_matrix(const TopoMatrix& matrix, std::ostream& out, bool legend = true);

}  // namespace hwcomm
