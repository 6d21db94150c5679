#pragma once
// Base of the CPU methods: both ends are NUMA nodes (same-node pairs are the
// local baseline); `cpu_end` is the end whose cores run the workers and must
// therefore have CPUs (a memory-only node cannot).
#include "methods/characterizer.hpp"

namespace hwcomm {

class NumaPairMethod : public Characterizer {
public:
    enum class CpuEnd { Src, Dst };
    std::vector<VertexKind> src_kinds() const override { return {VertexKind::NumaNode}; }
    std::vector<VertexKind> dst_kinds() const override { return {VertexKind::NumaNode}; }
    Applicability applicable(const Graph& graph, const Vertex& src, const Vertex& dst) const override;
    std::vector<ParamSet> parameter_sets(const Graph&, const Vertex&, const Vertex&, const MethodOptions&) const override {
        return {ParamSet{}};
    }

protected:
    virtual CpuEnd cpu_end() const = 0;
};

}  // namespace hwcomm
