// Host buffers kept between records (methods/cuda/common/host_buffer_pool.hpp):
// the next session that wants the kind, node and size gets the same pages,
// and its transfers move and verify their own data, not an earlier record's.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstring>
#include <vector>

#include "gpu_test_support.hpp"
#include "methods/cuda/common/host_buffer_pool.hpp"
#include "methods/cuda/common/host_memory.hpp"
#include "methods/cuda/register.hpp"
#include "platform/hwloc_topology.hpp"

using namespace hwcomm;
using namespace hwcomm::cuda;

TEST(HostPoolGpu, AReleasedBufferGoesToTheNextAskerOfItsKindNodeAndASizeItServes) {
    REQUIRE_GPUS(1);
    drain_host_pool();
    const HostPoolStats before = host_pool_stats();
    HwlocTopology topo;
    const int node = topo.numa_os_indexes().front();
    const std::size_t n = 8u << 20;
    std::byte* first = nullptr;
    {
        auto a = make_host_buffer(HostMemKind::Pinned, topo, node, n);
        EXPECT_FALSE(a->describe().at("recycled").get<bool>());
        first = a->data();
        std::memset(a->data(), 0x5A, n);
    }
    EXPECT_EQ(host_pool_stats().idle_count, 1u);
    {
        auto larger = make_host_buffer(HostMemKind::Pinned, topo, node, 2 * n);
        auto other_kind = make_host_buffer(HostMemKind::Registered, topo, node, n);
        EXPECT_FALSE(larger->describe().at("recycled").get<bool>());
        EXPECT_FALSE(other_kind->describe().at("recycled").get<bool>());
        auto again = make_host_buffer(HostMemKind::Pinned, topo, node, n);
        EXPECT_TRUE(again->describe().at("recycled").get<bool>());
        EXPECT_FALSE(again->describe().contains("allocated_bytes"));
        EXPECT_EQ(again->data(), first);
        EXPECT_EQ(again->size(), n);
        EXPECT_EQ(again->describe().at("numa"), node);
        // Still page-locked and mapped: a copy engine and a kernel's view reach it.
        ASSERT_NE(again->device_view(), nullptr);
        DeviceBuffer d(0, n);
        ASSERT_EQ(cudaMemset(d.data(), 0x3C, n), cudaSuccess);
        ASSERT_EQ(cudaMemcpy(again->data(), d.data(), n, cudaMemcpyDeviceToHost), cudaSuccess);
        EXPECT_EQ(again->data()[0], std::byte{0x3C});
        EXPECT_EQ(again->data()[n - 1], std::byte{0x3C});
    }
    EXPECT_EQ(host_pool_stats().reused, before.reused + 1);
    EXPECT_EQ(host_pool_stats().idle_count, 3u);
    {
        // A smaller request: the smallest idle buffer within 4x serves it, seen at the size asked for.
        auto half = make_host_buffer(HostMemKind::Pinned, topo, node, n / 2);
        EXPECT_TRUE(half->describe().at("recycled").get<bool>());
        EXPECT_EQ(half->size(), n / 2);
        EXPECT_EQ(half->describe().at("allocated_bytes"), n);
        EXPECT_EQ(half->data(), first);
        auto tiny = make_host_buffer(HostMemKind::Pinned, topo, node, n / 16);
        EXPECT_FALSE(tiny->describe().at("recycled").get<bool>()) << "2n is more than 4x n/16";
    }
    drain_host_pool();
    EXPECT_EQ(host_pool_stats().idle_bytes, 0u);
    // A pageable buffer handed on looks at its pages again: its placement is still told.
    { auto p = make_host_buffer(HostMemKind::Pageable, topo, node, n); }
    auto again = make_host_buffer(HostMemKind::Pageable, topo, node, n);
    EXPECT_TRUE(again->describe().at("recycled").get<bool>());
    EXPECT_TRUE(again->describe().at("placement").is_object());
    drain_host_pool();
}

// Two records of one method in a row: the second gets the first's host buffer
// and still verifies each of its samples. (memcpy-d2h's first record would get
// memcpy-h2d's buffer: the pool is emptied between the methods.)
TEST(HostPoolGpu, TheSecondRecordOfAMethodRecyclesTheFirstsBufferAndVerifies) {
    REQUIRE_GPUS(1);
    drain_host_pool();
    const Graph g = live_graph();
    Registry r;
    register_cuda_methods(r);
    for (const char* name : {"memcpy-h2d", "memcpy-d2h"}) {
        SCOPED_TRACE(name);
        drain_host_pool();
        const auto* m = r.find(name);
        const Vertex& numa = *g.of_kind(VertexKind::NumaNode).front();
        const Vertex& gpu = *g.find("gpu0");
        const Vertex& src = std::string(name) == "memcpy-h2d" ? numa : gpu;
        const Vertex& dst = std::string(name) == "memcpy-h2d" ? gpu : numa;
        ParamSet pinned;
        for (const ParamSet& p : m->parameter_sets(g, src, dst, {}))
            if (p.count("host_mem") && p.at("host_mem") == "pinned") pinned = p;
        ASSERT_FALSE(pinned.empty());
        for (int record = 0; record < 2; ++record) {
            auto session = m->prepare(g, src, dst, pinned, 16u << 20, MethodOptions{});
            EXPECT_EQ(session->context().at("host_buffer").at("recycled").get<bool>(), record == 1) << record;
            for (std::size_t bytes : {std::size_t{4096 + 5}, std::size_t{16u << 20}}) {
                session->warmup(bytes, "");
                session->reset(bytes, "");
                EXPECT_GT(session->measure(bytes, "").seconds, 0.0);
                EXPECT_EQ(session->verify(bytes, ""), "") << record << " " << bytes;
            }
        }
    }
    // Across methods too: the second method's buffer goes to the first's next record.
    const auto* h2d = r.find("memcpy-h2d");
    const Vertex& numa = *g.of_kind(VertexKind::NumaNode).front();
    for (const ParamSet& p : h2d->parameter_sets(g, numa, *g.find("gpu0"), {}))
        if (p.count("host_mem") && p.at("host_mem") == "pinned") {
            auto session = h2d->prepare(g, numa, *g.find("gpu0"), p, 16u << 20, MethodOptions{});
            EXPECT_TRUE(session->context().at("host_buffer").at("recycled").get<bool>());
        }
    drain_host_pool();
}
