#pragma once
// What the GPU tests share: the CUDA device count and this machine as the
// CUDA methods see it.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <string>
#include <vector>

#include "core/graph.hpp"
#include "methods/cuda/common/cuda_handles.hpp"
#include "platform/hwloc_topology.hpp"

namespace hwcomm::cuda {

inline int gpu_count() {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return n;
}

#define REQUIRE_GPUS(n)                                                       \
    do {                                                                      \
        if (gpu_count() < (n)) GTEST_SKIP() << "needs " << (n) << " CUDA GPU(s)"; \
    } while (0)

inline std::vector<std::size_t> free_device_memory() {
    std::vector<std::size_t> out;
    for (int d = 0; d < gpu_count(); ++d) {
        std::size_t free = 0, total = 0;
        EXPECT_EQ(cudaSetDevice(d), cudaSuccess);
        EXPECT_EQ(cudaFree(nullptr), cudaSuccess);  // create the context first
        EXPECT_EQ(cudaMemGetInfo(&free, &total), cudaSuccess);
        out.push_back(free);
    }
    EXPECT_EQ(cudaSetDevice(0), cudaSuccess);
    return out;
}

// This machine as the CUDA methods see it: NUMA nodes from hwloc, GPUs from
// CUDA, peer pairs joined through one NVSwitch-fabric vertex.
inline Graph live_graph() {
    Graph g;
    HwlocTopology topo;
    for (int n : topo.numa_os_indexes()) {
        Vertex v{.id = "numa" + std::to_string(n), .kind = VertexKind::NumaNode, .os_index = n};
        v.numa = NumaInfo{.memory_bytes = 1ull << 30};
        g.add_vertex(v);
    }
    g.add_vertex({.id = "fabric", .kind = VertexKind::NvSwitchFabric});
    const int gpus = gpu_count();
    for (int i = 0; i < gpus; ++i) {
        Vertex v{.id = "gpu" + std::to_string(i), .kind = VertexKind::Gpu};
        v.gpu = GpuInfo{.cuda_ordinal = i};
        g.add_vertex(v);
    }
    for (int i = 0; i < gpus; ++i) {
        bool any = false;
        for (int j = 0; j < gpus; ++j) any = any || (i != j && can_access_peer(i, j));
        if (any) g.add_edge({.a = "gpu" + std::to_string(i), .b = "fabric", .kind = EdgeKind::NvLink});
    }
    return g;
}


}  // namespace hwcomm::cuda
