#pragma once
// A scripted GPU-to-GPU method for the class plan's tests: every sample takes
// a planted latency plus the bytes over a planted rate of its pair, so the
// test knows which pair is unlike its class.
#include <algorithm>
#include <map>
#include <vector>
#include <memory>
#include <utility>

#include "core/device_error.hpp"
#include "core/error.hpp"
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
    // Pairs whose first session only moves at this rate (a host faster while it ran).
    std::map<std::pair<std::string, std::string>, double> first_gbps_of;
    // Pairs whose session of index k moves at the k-th rate (later sessions: as planted otherwise).
    std::map<std::pair<std::string, std::string>, std::vector<double>> gbps_by_session;
    // Pairs slower only when measured in a confirmation round (their round slows them).
    std::map<std::pair<std::string, std::string>, double> round_gbps_of;
    bool rounds = true;  // the method measures its pairs in rounds (Characterizer::measures_rounds)
    bool from_host = false;  // NUMA node -> GPU pairs instead of GPU -> GPU
    // Pairs whose session of this index (0: the first) verifies wrong data at every size.
    std::map<std::pair<std::string, std::string>, int> wrong_session_of;
    // Pairs whose session of this index loses the CUDA context (a sticky DeviceError) at its first sample.
    std::map<std::pair<std::string, std::string>, int> lost_session_of;
    bool one_way = false;  // Characterizer::rounds_one_way
    bool round_fails = false;  // prepare_round throws MeasurementError
    bool round_data_wrong = false;  // a round's verify() reports one lane's data wrong
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
    PlantedSession(double latency_s, double gbps, std::size_t max, bool wrong = false, bool lost = false)
        : latency_s_(latency_s), gbps_(gbps), max_(max), wrong_(wrong), lost_(lost) {}
    void warmup(std::size_t, const std::string&) override {}
    Sample measure(std::size_t bytes, const std::string&) override {
        if (lost_)
            throw DeviceError("cudaMemcpyAsync failed: cudaErrorIllegalAddress", "cuda", "cudaErrorIllegalAddress", 700,
                              true);
        Sample s;
        s.bytes_per_rep = static_cast<double>(bytes);
        s.seconds = latency_s_ + static_cast<double>(bytes) / (gbps_ * 1e9);
        return s;
    }
    std::string verify(std::size_t, const std::string&) override { return wrong_ ? "planted: 8 of 1024 words wrong" : ""; }
    std::size_t max_bytes() const override { return max_; }

private:
    double latency_s_, gbps_;
    std::size_t max_;
    bool wrong_, lost_;
};

// A round: every lane its pair's planted time, the sample as long as the slowest.
class PlantedRoundSession : public TransferSession {
public:
    struct Lane {
        std::string label;
        double latency_s, gbps;
    };
    PlantedRoundSession(std::vector<Lane> lanes, std::size_t max, bool data_wrong = false)
        : lanes_(std::move(lanes)), max_(max), data_wrong_(data_wrong) {}
    void warmup(std::size_t, const std::string&) override {}
    Sample measure(std::size_t bytes, const std::string&) override {
        Sample s;
        s.bytes_per_rep = static_cast<double>(bytes) * static_cast<double>(lanes_.size());
        for (const Lane& l : lanes_) {
            const double t = l.latency_s + static_cast<double>(bytes) / (l.gbps * 1e9);
            s.lanes.push_back({l.label, t, static_cast<double>(bytes)});
            s.seconds = std::max(s.seconds, t);
        }
        return s;
    }
    std::string verify(std::size_t, const std::string&) override {
        return data_wrong_ ? lanes_.front().label + ": 8 of 1024 words wrong" : "";
    }
    std::vector<LaneSpec> lanes() const override {
        std::vector<LaneSpec> out;
        for (const Lane& l : lanes_) out.push_back({l.label, "planted", "", "", {}, "measured", nlohmann::json::object()});
        return out;
    }
    std::size_t max_bytes() const override { return max_; }

private:
    std::vector<Lane> lanes_;
    std::size_t max_;
    bool data_wrong_;
};

class PlantedMethod : public Characterizer {
public:
    explicit PlantedMethod(PlantedLinks links, std::string name = "planted")
        : links_(std::move(links)), name_(std::move(name)) {}
    std::string name() const override { return name_; }
    std::string description() const override { return "planted times per GPU pair"; }
    std::vector<VertexKind> src_kinds() const override { return {links_.from_host ? VertexKind::NumaNode : VertexKind::Gpu}; }
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
        const auto first_rate = session == 0 ? links_.first_gbps_of.find(pair) : links_.first_gbps_of.end();
        const auto wrong = links_.wrong_session_of.find(pair);
        const auto lost = links_.lost_session_of.find(pair);
        double rate = first_rate != links_.first_gbps_of.end() ? first_rate->second : links_.rate(s.id, d.id);
        if (const auto scripted = links_.gbps_by_session.find(pair);
            scripted != links_.gbps_by_session.end() && session < static_cast<int>(scripted->second.size()))
            rate = scripted->second[static_cast<std::size_t>(session)];
        return std::make_unique<PlantedSession>(it != noisy.end() ? it->second : links_.latency(s.id, d.id), rate,
                                                max, wrong != links_.wrong_session_of.end() && wrong->second == session,
                                                lost != links_.lost_session_of.end() && lost->second == session);
    }
    bool measures_rounds(const ParamSet&) const override { return links_.rounds; }
    bool rounds_one_way(const ParamSet&) const override { return links_.one_way; }
    std::unique_ptr<TransferSession> prepare_round(const Graph&, const std::vector<RoundLane>& lanes, const ParamSet&,
                                                   std::size_t max, const MethodOptions&) const override {
        ++rounds_prepared;
        if (links_.round_fails) throw MeasurementError("planted: this round cannot be prepared");
        std::vector<PlantedRoundSession::Lane> planted;
        for (const RoundLane& lane : lanes) {
            const std::pair<std::string, std::string> pair{lane.src->id, lane.dst->id};
            const int session = prepares_of[pair]++;
            const auto& noisy = session == 0 ? links_.first_latency_of : links_.second_latency_of;
            const auto it = session < 2 ? noisy.find(pair) : noisy.end();
            const auto slowed = links_.round_gbps_of.find(pair);
            planted.push_back({pair.first + "->" + pair.second,
                               it != noisy.end() ? it->second : links_.latency(pair.first, pair.second),
                               slowed != links_.round_gbps_of.end() ? slowed->second
                                                                     : links_.rate(pair.first, pair.second)});
        }
        return std::make_unique<PlantedRoundSession>(std::move(planted), max, links_.round_data_wrong);
    }
    mutable std::size_t rounds_prepared = 0;
    mutable std::size_t prepared = 0;
    mutable std::map<std::pair<std::string, std::string>, int> prepares_of;

private:
    PlantedLinks links_;
    std::string name_;
};

}  // namespace hwcomm::test
