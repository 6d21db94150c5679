#pragma once
// A method on NUMA-node pairs whose sessions the test makes (planted curves
// for the engine's ladder tests): one parameter set, every pair applicable.
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "methods/characterizer.hpp"

namespace hwcomm::test {

class CurveMethod : public Characterizer {
public:
    using MakeSession = std::function<std::unique_ptr<TransferSession>(std::size_t max_bytes)>;
    CurveMethod(std::string name, MakeSession make) : name_(std::move(name)), make_(std::move(make)) {}
    std::string name() const override { return name_; }
    std::string description() const override { return "planted curve"; }
    std::vector<VertexKind> src_kinds() const override { return {VertexKind::NumaNode}; }
    std::vector<VertexKind> dst_kinds() const override { return {VertexKind::NumaNode}; }
    Applicability applicable(const Graph&, const Vertex&, const Vertex&) const override { return Applicability::yes(); }
    std::vector<ParamSet> parameter_sets(const Graph&, const Vertex&, const Vertex&, const MethodOptions&) const override {
        return {ParamSet{}};
    }
    std::unique_ptr<TransferSession> prepare(const Graph&, const Vertex&, const Vertex&, const ParamSet&, std::size_t max,
                                             const MethodOptions&) const override {
        return make_(max);
    }

private:
    std::string name_;
    MakeSession make_;
};

}  // namespace hwcomm::test
