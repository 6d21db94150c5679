#pragma once
// Base of the CPU methods: both ends are NUMA nodes (same-node pairs are the
// local baseline); `cpu_end` is the end whose cores run the workers and must
// therefore have CPUs (a memory-only node cannot).
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "methods/characterizer.hpp"

namespace hwcomm {

// The NUMA OS index of a vertex, or MeasurementError.
int numa_index_of(const Vertex& v);

class NumaPairMethod : public Characterizer {
public:
    enum class CpuEnd { Src, Dst };
    std::vector<VertexKind> src_kinds() const override { return {VertexKind::NumaNode}; }
    std::vector<VertexKind> dst_kinds() const override { return {VertexKind::NumaNode}; }
    Applicability applicable(const Graph& graph, const Vertex& src, const Vertex& dst) const override;
    std::vector<ParamSet> parameter_sets(const Graph&, const Vertex&, const Vertex&, const MethodOptions&) const override {
        return {ParamSet{}};
    }
    // Every CPU method declares --smt (a method option: one place, see method_options.hpp).
    std::vector<OptionSpec> options() const override {
        return {{"smt", OptionType::Flag, "",
                 "CPU methods: after one worker per physical core, also use the SMT siblings (default: one per core)",
                 {}}};
    }

protected:
    virtual CpuEnd cpu_end() const = 0;
};

// A NUMA-pair method without parameters: a name, a description, the end that
// runs the workers and how to make its session from the two nodes' OS indexes.
class PlainNumaPairMethod final : public NumaPairMethod {
public:
    using MakeSession =
        std::function<std::unique_ptr<TransferSession>(int src_node, int dst_node, std::size_t max_bytes, const MethodOptions&)>;
    PlainNumaPairMethod(std::string name, std::string description, CpuEnd end, MakeSession make)
        : name_(std::move(name)), description_(std::move(description)), end_(end), make_(std::move(make)) {}
    std::string name() const override { return name_; }
    std::string description() const override { return description_; }
    std::unique_ptr<TransferSession> prepare(const Graph&, const Vertex& src, const Vertex& dst, const ParamSet&,
                                             std::size_t max_bytes, const MethodOptions& options) const override {
        return make_(numa_index_of(src), numa_index_of(dst), max_bytes, options);
    }

protected:
    CpuEnd cpu_end() const override { return end_; }

private:
    std::string name_, description_;
    CpuEnd end_;
    MakeSession make_;
};

// The PlainNumaPairMethod whose session is Session(src_node, dst_node, max_bytes, options).
template <class Session>
std::unique_ptr<Characterizer> make_plain_numa_pair_method(std::string name, std::string description,
                                                           NumaPairMethod::CpuEnd end) {
    return std::make_unique<PlainNumaPairMethod>(
        std::move(name), std::move(description), end,
        [](int src, int dst, std::size_t max_bytes, const MethodOptions& options) -> std::unique_ptr<TransferSession> {
            return std::make_unique<Session>(src, dst, max_bytes, options);
        });
}

}  // namespace hwcomm
