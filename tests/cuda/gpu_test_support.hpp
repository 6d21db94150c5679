#pragma once
// What the GPU tests share: the CUDA device count and this machine as the
// CUDA methods see it.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "core/graph.hpp"
#include "methods/characterizer.hpp"
#include "methods/cuda/common/cuda_handles.hpp"
#include "methods/cuda/register.hpp"
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

inline const Vertex& first_numa(const Graph& g) { return *g.of_kind(VertexKind::NumaNode).front(); }

// This machine and the CUDA methods, as most GPU tests start.
struct LiveCuda {
    Graph graph = live_graph();
    Registry registry;
    LiveCuda() { register_cuda_methods(registry); }
    const Characterizer& method(const std::string& name) const {
        const Characterizer* m = registry.find(name);
        if (!m) throw std::runtime_error("no method " + name);
        return *m;
    }
    const Vertex& vertex(const std::string& id) const {
        const Vertex* v = graph.find(id);
        if (!v) throw std::runtime_error("no vertex " + id);
        return *v;
    }
    const Vertex& first_numa() const { return cuda::first_numa(graph); }
};

// As the engine does a point: warm-up, reset, one sample, and the data of that
// sample verified (`what` names it in a failure).
inline Sample verified_sample(TransferSession& s, std::size_t bytes, const std::string& what) {
    s.warmup(bytes, "");
    s.reset(bytes, "");
    const Sample x = s.measure(bytes, "");
    EXPECT_EQ(s.verify(bytes, ""), "") << what;
    return x;
}

// Bytes over time of one sample.
inline double gbps_of(const Sample& s) {
    return s.bytes_per_rep * static_cast<double>(s.repetitions) / s.seconds / 1e9;
}

}  // namespace hwcomm::cuda
