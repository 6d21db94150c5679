#pragma once
// Base of the CPU methods: both ends are NUMA nodes (same-node pairs are the
// local baseline); `cpu_end` is the end whose cores run the workers and must
// therefore have CPUs (a memory-only node cannot).
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "catalog/method_params.hpp"
#include "methods/characterizer.hpp"
#include "methods/cpu/stream_kernels.hpp"

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

// A NUMA-pair method: a name, a description, the end that runs the workers,
// its parameter sets (none, or e.g. stores=plain|nt) and how to make its
// session from the two nodes' OS indexes and one parameter set.
class PlainNumaPairMethod final : public NumaPairMethod {
public:
    using MakeSession = std::function<std::unique_ptr<TransferSession>(int src_node, int dst_node, std::size_t max_bytes,
                                                                       const ParamSet& params, const MethodOptions&)>;
    PlainNumaPairMethod(std::string name, std::string description, CpuEnd end, MakeSession make,
                        std::vector<ParamSet> params = {ParamSet{}}, std::map<std::string, std::string> docs = {},
                        SizePolicy sizes = {})
        : name_(std::move(name)), description_(std::move(description)), end_(end), make_(std::move(make)),
          params_(std::move(params)), docs_(std::move(docs)), sizes_(sizes) {}
    std::string name() const override { return name_; }
    std::string description() const override { return description_; }
    std::vector<ParamSet> parameter_sets(const Graph&, const Vertex&, const Vertex&, const MethodOptions&) const override {
        return params_;
    }
    std::map<std::string, std::string> parameter_docs() const override { return docs_; }
    SizePolicy size_policy() const override { return sizes_; }
    std::unique_ptr<TransferSession> prepare(const Graph&, const Vertex& src, const Vertex& dst, const ParamSet& params,
                                             std::size_t max_bytes, const MethodOptions& options) const override {
        return make_(numa_index_of(src), numa_index_of(dst), max_bytes, params, options);
    }

protected:
    CpuEnd cpu_end() const override { return end_; }

private:
    std::string name_, description_;
    CpuEnd end_;
    MakeSession make_;
    std::vector<ParamSet> params_;
    std::map<std::string, std::string> docs_;
    SizePolicy sizes_;
};

// The PlainNumaPairMethod whose session is Session(src_node, dst_node, max_bytes, options).
template <class Session>
std::unique_ptr<Characterizer> make_plain_numa_pair_method(std::string name, std::string description,
                                                           NumaPairMethod::CpuEnd end) {
    return std::make_unique<PlainNumaPairMethod>(
        std::move(name), std::move(description), end,
        [](int src, int dst, std::size_t max_bytes, const ParamSet&,
           const MethodOptions& options) -> std::unique_ptr<TransferSession> {
            return std::make_unique<Session>(src, dst, max_bytes, options);
        });
}

// stores=plain|nt: the same loop with plain stores (which read every line for
// ownership first) and with non-temporal stores (which do not).
inline std::map<std::string, std::string> stores_param_docs() {
    return {{StoresParam::key, "plain: ordinary stores (each line is read for ownership first); "
                       "nt: non-temporal stores that bypass the caches (plain where the CPU has none: see context.kernels)"}};
}
// The Stores of a parameter set (plain when absent); throws MeasurementError on another value.
Stores stores_of(const ParamSet& params);

// The PlainNumaPairMethod with stores=plain and stores=nt, whose session is
// Session(src_node, dst_node, max_bytes, stores, options).
template <class Session>
std::unique_ptr<Characterizer> make_stores_numa_pair_method(std::string name, std::string description,
                                                            NumaPairMethod::CpuEnd end, SizePolicy sizes = {}) {
    return std::make_unique<PlainNumaPairMethod>(
        std::move(name), std::move(description), end,
        [](int src, int dst, std::size_t max_bytes, const ParamSet& params,
           const MethodOptions& options) -> std::unique_ptr<TransferSession> {
            return std::make_unique<Session>(src, dst, max_bytes, stores_of(params), options);
        },
        std::vector<ParamSet>{{{StoresParam::key, StoresParam::Plain}}, {{StoresParam::key, StoresParam::Nt}}},
        stores_param_docs(), sizes);
}

}  // namespace hwcomm
