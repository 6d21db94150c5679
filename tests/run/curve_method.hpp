#pragma once
// A method on NUMA-node pairs whose sessions the test makes (planted curves
// for the engine's ladder tests): one parameter set, every pair applicable;
// and one record of it run as the engine runs a ladder.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "fake_method.hpp"
#include "methods/characterizer.hpp"
#include "run/engine.hpp"

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

// One record of `method` from numa0 to itself over 1 MiB .. 1 GiB, as the
// engine measures a ladder; `tune` adjusts the run's options first.
inline Record run_curve(const CurveMethod& method, const EngineHooks& hooks = {},
                        const std::function<void(RunOptions&)>& tune = {}) {
    const Graph g = three_nodes();
    RunOptions o;
    SweepOptions s;
    s.min_bytes = std::uint64_t{1} << 20;
    o.sweep = s;
    o.sizes = sweep_sizes(s);
    if (tune) tune(o);
    const Vertex& a = g.vertices().front();
    const std::string name = method.name();
    PlannedRecord p{&method, &a, &a, {}, record_key(name, a.id, a.id, {}), a.id, a.id, std::nullopt};
    ResultsFile results;
    EXPECT_EQ(run_plan(g, {p}, o, results, hooks), 1u);
    return results.records.at(0);
}

// The largest size a record measured.
inline std::uint64_t largest_point(const Record& r) {
    std::uint64_t m = 0;
    for (const Point& p : r.points) m = std::max<std::uint64_t>(m, p.bytes);
    return m;
}

}  // namespace hwcomm::test
