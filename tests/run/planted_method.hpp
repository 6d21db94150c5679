#pragma once
// A scripted GPU-to-GPU method for the class plan's tests: every sample takes
// a planted latency plus the bytes over a planted rate of its pair, so the
// test knows which pair is unlike its class.
#include <map>
#include <memory>
#include <utility>

#include "methods/characterizer.hpp"

namespace hwcomm::test {

struct PlantedLinks {
    double latency_s = 2e-6;
    double gbps = 400;
    std::map<std::pair<std::string, std::string>, double> gbps_of;     // pairs unlike the rest
    std::map<std::pair<std::string, std::string>, double> latency_of;  // pairs with their own latency
    // Pairs whose first session only takes this latency (noise that does not repeat).
    std::map<std::pair<std::string, std::string>, double> first_latency_of;
    // Pairs whose second session only takes this latency.
    std::map<std::pair<std::string, std::string>, double> second_latency_of;
    double rate(const std::string& src, const std::string& dst) const {
        const auto it = gbps_of.find({src, dst});
        return it == gbps_of.end() ? gbps : it->second;
    }
    double latency(const std::string& src, const std::string& dst) const {
        const auto it = latency_of.find({src, dst});
        return it == latency_of.end() ? latency_s : it->second;
    }
};

class PlantedSession : public TransferSession {
public:
    PlantedSession(double latency_s, double gbps, std::size_t max) : latency_s_(latency_s), gbps_(gbps), max_(max) {}
    void warmup(std::size_t, const std::string&) override {}
    Sample measure(std::size_t bytes, const std::string&) override {
        Sample s;
        s.bytes_per_rep = static_cast<double>(bytes);
        s.seconds = latency_s_ + static_cast<double>(bytes) / (gbps_ * 1e9);
        return s;
    }
    std::string verify(std::size_t, const std::string&) override { return ""; }
    std::size_t max_bytes() const override { return max_; }

private:
    double latency_s_, gbps_;
    std::size_t max_;
};

class PlantedMethod : public Characterizer {
public:
    explicit PlantedMethod(PlantedLinks links) : links_(std::move(links)) {}
    std::string name() const override { return "planted"; }
    std::string description() const override { return "planted times per GPU pair"; }
    std::vector<VertexKind> src_kinds() const override { return {VertexKind::Gpu}; }
    std::vector<VertexKind> dst_kinds() const override { return {VertexKind::Gpu}; }
    Applicability applicable(const Graph&, const Vertex& s, const Vertex& d) const override {
        return s.id != d.id ? Applicability::yes() : Applicability::no("same GPU");
    }
    std::vector<ParamSet> parameter_sets(const Graph&, const Vertex&, const Vertex&, const MethodOptions&) const override {
        return {ParamSet{}};
    }
    std::unique_ptr<TransferSession> prepare(const Graph&, const Vertex& s, const Vertex& d, const ParamSet&,
                                             std::size_t max, const MethodOptions&) const override {
        ++prepared;
        const std::pair<std::string, std::string> pair{s.id, d.id};
        const int session = prepares_of[pair]++;
        const auto& noisy = session == 0 ? links_.first_latency_of : links_.second_latency_of;
        const auto it = session < 2 ? noisy.find(pair) : noisy.end();
        return std::make_unique<PlantedSession>(it != noisy.end() ? it->second : links_.latency(s.id, d.id),
                                                links_.rate(s.id, d.id), max);
    }
    mutable std::size_t prepared = 0;
    mutable std::map<std::pair<std::string, std::string>, int> prepares_of;

private:
    PlantedLinks links_;
};

}  // namespace hwcomm::test
