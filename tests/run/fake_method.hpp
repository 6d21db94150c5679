#pragma once
// A deterministic characterizer for engine tests: sample times come from a
// formula, variants "1" and "2" (2 is twice as fast), and failure switches.
#include <memory>
#include <stdexcept>

#include "core/error.hpp"
#include "methods/characterizer.hpp"

namespace hwcomm::test {

struct FakeBehaviour {
    bool fail_prepare = false;
    bool prepare_throws_std = false;  // prepare throws std::runtime_error (not a MeasurementError)
    std::size_t fail_verify_at = 0;   // bytes whose verification fails (0: none)
    std::size_t throw_measure_at = 0; // bytes whose measure throws (0: none)
    std::size_t session_max = 0;      // 0: what the engine asks
    SizePolicy sizes;                 // the method's size policy
};

class FakeSession : public TransferSession {
public:
    FakeSession(FakeBehaviour b, std::size_t max) : b_(b), max_(b.session_max ? b.session_max : max) {}
    std::vector<std::string> variants() const override { return {"1", "2"}; }
    void warmup(std::size_t, const std::string&) override { ++warmups; }
    Sample measure(std::size_t bytes, const std::string& variant) override {
        if (bytes == b_.throw_measure_at) throw MeasurementError("device fell off the bus");
        Sample s;
        s.repetitions = 4;
        s.bytes_per_rep = static_cast<double>(bytes);
        // 1 GB/s with one worker, 2 GB/s with two: seconds per transfer = bytes / rate.
        const double rate = variant == "2" ? 2e9 : 1e9;
        s.seconds = 4 * static_cast<double>(bytes) / rate;
        s.extras["skew_s"] = 1e-6;
        return s;
    }
    std::string verify(std::size_t bytes, const std::string&) override {
        return bytes == b_.fail_verify_at ? "byte 3 differs" : "";
    }
    nlohmann::json context() const override { return {{"fake", true}, {"cuda", {{"driver_version", 13000}}}}; }
    std::size_t max_bytes() const override { return max_; }
    int warmups = 0;

private:
    FakeBehaviour b_;
    std::size_t max_;
};

class FakeMethod : public Characterizer {
public:
    FakeMethod(std::string name, FakeBehaviour b = {}) : name_(std::move(name)), b_(b) {}
    std::string name() const override { return name_; }
    std::string description() const override { return "fake"; }
    std::vector<VertexKind> src_kinds() const override { return {VertexKind::NumaNode}; }
    std::vector<VertexKind> dst_kinds() const override { return {VertexKind::NumaNode}; }
    Applicability applicable(const Graph&, const Vertex& s, const Vertex& d) const override {
        // Only "up" pairs (src id <= dst id), to check that others are left out.
        return s.id <= d.id ? Applicability::yes() : Applicability::no("down pair");
    }
    std::vector<ParamSet> parameter_sets(const Graph&, const Vertex&, const Vertex&, const MethodOptions&) const override {
        return {ParamSet{{"mode", "a"}}, ParamSet{{"mode", "b"}}};
    }
    SizePolicy size_policy() const override { return b_.sizes; }
    std::unique_ptr<TransferSession> prepare(const Graph&, const Vertex&, const Vertex&, const ParamSet&, std::size_t max,
                                             const MethodOptions&) const override {
        ++prepared;
        if (b_.fail_prepare) throw MeasurementError("cannot allocate pinned memory");
        if (b_.prepare_throws_std) throw std::runtime_error("hwloc: no such node");
        return std::make_unique<FakeSession>(b_, max);
    }

    mutable int prepared = 0;

private:
    std::string name_;
    FakeBehaviour b_;
};

inline Graph three_nodes() {
    Graph g;
    for (int i = 0; i < 3; ++i) {
        Vertex v;
        v.id = "numa" + std::to_string(i);
        v.kind = VertexKind::NumaNode;
        v.os_index = i;
        g.add_vertex(v);
    }
    return g;
}

}  // namespace hwcomm::test
