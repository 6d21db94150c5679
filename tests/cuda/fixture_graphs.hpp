#pragma once
// Small machine graphs for the host-side tests of the CUDA methods.
#include <string>

#include "core/graph.hpp"

namespace hwcomm::test {

inline Vertex numa_vertex(int index, std::uint64_t memory = 64ull << 30) {
    Vertex v{.id = "numa" + std::to_string(index), .kind = VertexKind::NumaNode, .os_index = index};
    v.numa = NumaInfo{.memory_bytes = memory, .cores = 16};
    return v;
}

inline Vertex gpu_vertex(int ordinal) {
    Vertex v{.id = "gpu" + std::to_string(ordinal), .kind = VertexKind::Gpu, .name = "NVIDIA H200"};
    v.gpu = GpuInfo{.model = "NVIDIA H200", .cuda_ordinal = ordinal, .sm_count = 132};
    return v;
}

inline void pcie(Graph& g, const std::string& parent, const std::string& child, int gen = 5, int width = 16) {
    Edge e{.a = parent, .b = child, .kind = EdgeKind::Pcie};
    e.pcie = PcieLink{gen, width, gen, width};
    g.add_edge(e);
}

// Two sockets, one NUMA node each; gpu0, gpu1 behind a switch of numa0's root,
// gpu2, gpu3 behind numa1's root; NVLink pairs gpu0-gpu1 and gpu2-gpu3 only.
inline Graph two_socket_four_gpus() {
    Graph g;
    for (int n = 0; n < 2; ++n) {
        g.add_vertex(numa_vertex(n));
        g.add_vertex({.id = "hb" + std::to_string(n), .kind = VertexKind::HostBridge});
        g.add_edge({.a = "numa" + std::to_string(n), .b = "hb" + std::to_string(n), .kind = EdgeKind::Membership});
        g.add_vertex({.id = "sw" + std::to_string(n), .kind = VertexKind::PciBridge});
        pcie(g, "hb" + std::to_string(n), "sw" + std::to_string(n));
    }
    g.add_edge({.a = "numa0", .b = "numa1", .kind = EdgeKind::Smp, .smp_distance = 21});
    for (int i = 0; i < 4; ++i) {
        g.add_vertex(gpu_vertex(i));
        pcie(g, i < 2 ? "sw0" : "sw1", "gpu" + std::to_string(i), i == 3 ? 4 : 5, i == 3 ? 8 : 16);
    }
    g.add_edge({.a = "gpu0", .b = "gpu1", .kind = EdgeKind::NvLink});
    g.add_edge({.a = "gpu2", .b = "gpu3", .kind = EdgeKind::NvLink});
    return g;
}

// The 2x H200 VM: one NUMA node, both GPUs under one root, NVLink through
// the hidden NVSwitch fabric; plus a GPU CUDA does not see and a memory-less node.
inline Graph h200_vm() {
    Graph g;
    g.add_vertex(numa_vertex(0));
    g.add_vertex(numa_vertex(1, 0));  // memory-less (CPU-only) node
    g.add_vertex({.id = "pci:0000:00", .kind = VertexKind::HostBridge});
    g.add_edge({.a = "numa0", .b = "pci:0000:00", .kind = EdgeKind::Membership});
    g.add_vertex({.id = "nvswitch-fabric", .kind = VertexKind::NvSwitchFabric});
    for (int i = 0; i < 2; ++i) {
        g.add_vertex(gpu_vertex(i));
        pcie(g, "pci:0000:00", "gpu" + std::to_string(i));
        g.add_edge({.a = "gpu" + std::to_string(i), .b = "nvswitch-fabric", .kind = EdgeKind::NvLink});
    }
    Vertex hidden = gpu_vertex(7);
    hidden.id = "gpu-hidden";
    hidden.gpu->cuda_ordinal = -1;
    g.add_vertex(hidden);
    return g;
}

}  // namespace hwcomm::test
