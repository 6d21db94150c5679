#pragma once
// Fixture of the CPU-session tests: this machine's first NUMA node as a
// same-node pair, the CPU methods registered.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "methods/cpu/register.hpp"
#include "numa_graphs.hpp"
#include "platform/hwloc_topology.hpp"

namespace hwcomm::test {

class CpuSessionTest : public ::testing::Test {
protected:
    void SetUp() override {
        HwlocTopology topo;
        node_ = topo.numa_os_indexes().front();
        cores_ = topo.cores_of_numa(node_);
        graph_.add_vertex(numa_vertex(node_, cores_));
        register_cpu_methods(registry_);
    }
    std::unique_ptr<TransferSession> prepare(const std::string& method, ParamSet params = {},
                                             std::size_t bytes = 1 << 20, MethodOptions options = {}) {
        const Vertex& v = *graph_.find("numa" + std::to_string(node_));
        return registry_.find(method)->prepare(graph_, v, v, params, bytes, options);
    }
    int node_ = 0;
    unsigned cores_ = 0;
    Graph graph_;
    Registry registry_;
};

// One sample as the engine takes it: untimed reset, timed batch, check.
inline std::string sample_and_verify(TransferSession& s, std::size_t bytes, const std::string& variant) {
    s.reset(bytes, variant);
    s.measure(bytes, variant);
    return s.verify(bytes, variant);
}

}  // namespace hwcomm::test
