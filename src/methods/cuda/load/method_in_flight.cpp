// in-flight: the pattern C's number of pending transfers. One copy of each
// size with 1, 2, 4 or 8 transfers in flight at once: on one stream (queued
// back to back, each from its own buffer pair) or on as many streams (one
// transfer each, released together). The point's bandwidth is every
// transfer's bytes over the common window; lanes[] gives each stream's own.
#include <map>
#include <memory>

#include "methods/cuda/common/graph_queries.hpp"
#include "methods/cuda/common/session_common.hpp"
#include "methods/cuda/load/load_methods.hpp"
#include "methods/cuda/load/route_lanes.hpp"

namespace hwcomm::cuda {

namespace {

constexpr unsigned kMaxInFlight = 8;

class InFlightSession final : public TransferSession {
public:
    InFlightSession(const Vertex& src, const Vertex& dst, const SizeCap& cap, TimingMode mode, std::string method)
        : buffers_(src, dst, cap.max_bytes, kMaxInFlight), mode_(mode), max_bytes_(cap.max_bytes),
          method_(std::move(method)) {
        current_ = &group(kMaxInFlight, "several");  // the record's lanes: the widest case
        lanes_ = current_->lanes();
    }
    void set_axes(const std::map<std::string, nlohmann::json>& values) override {
        n_ = values.at("in_flight").get<unsigned>();
        one_stream_ = values.at("streams").get<std::string>() == "one";
        if (n_ < 1 || n_ > kMaxInFlight) throw MeasurementError("in_flight must be 1 to 8");
        current_ = &group(n_, one_stream_ ? "one" : "several");
    }
    void warmup(std::size_t bytes, const std::string& v) override { current_->warmup(bytes, v); }
    void reset(std::size_t bytes, const std::string& v) override { current_->reset(bytes, v); }
    Sample measure(std::size_t bytes, const std::string& v) override {
        Sample s = current_->measure(bytes, v);
        if (one_stream_) {  // the lane group counts one transfer per lane and repetition; this one queues n
            s.bytes_per_rep *= n_;
            for (LaneSample& l : s.lanes) l.bytes_per_rep *= n_;
        }
        return s;
    }
    std::string verify(std::size_t bytes, const std::string& v) override { return current_->verify(bytes, v); }
    std::vector<LaneSpec> lanes() const override { return lanes_; }
    nlohmann::json context() const override {
        nlohmann::json j = context_;
        j.update(current_->context());
        j["in_flight"] = {{"buffers", buffers_.describe()},
                          {"how", "streams=one: n copies queued back to back on one stream per repetition, each "
                                  "from its own buffer pair (the check covers the first pair); streams=several: n "
                                  "streams, one copy each, released together by the gate"}};
        return j;
    }
    std::size_t max_bytes() const override { return max_bytes_; }

    nlohmann::json context_ = nlohmann::json::object();

private:
    RouteLaneGroup& group(unsigned n, const std::string& streams) {
        const std::string key = streams + std::to_string(n);
        auto it = groups_.find(key);
        if (it != groups_.end()) return *it->second;
        auto g = std::make_unique<RouteLaneGroup>(mode_, max_bytes_);
        if (streams == "one") g->add_lane(buffers_.lane(0, n, "stream0", method_));
        else
            for (unsigned k = 0; k < n; ++k) g->add_lane(buffers_.lane(k, 1, "stream" + std::to_string(k), method_));
        return *groups_.emplace(key, std::move(g)).first->second;
    }

    RouteBuffers buffers_;  // before the groups: their streams drain before the buffers go
    std::map<std::string, std::unique_ptr<RouteLaneGroup>> groups_;
    RouteLaneGroup* current_ = nullptr;
    std::vector<LaneSpec> lanes_;
    TimingMode mode_;
    std::size_t max_bytes_;
    std::string method_;
    unsigned n_ = 1;
    bool one_stream_ = false;
};

class InFlightMethod final : public RouteCharacterizer {
public:
    std::string name() const override { return "in-flight"; }
    std::string description() const override {
        return "a copy with 1, 2, 4 or 8 transfers in flight, on one stream or on several (copy engines, pinned host "
               "memory or peer)";
    }
    std::map<std::string, std::string> parameter_docs() const override {
        return {{"in_flight (axis)", "transfers of the point's size pending at once: 1, 2, 4, 8"},
                {"streams (axis)", "one: queued back to back on one stream; several: one stream per transfer"}};
    }
    std::vector<AxisSpec> axes() const override {
        return {{"in_flight", {1, 2, 4, 8}, "transfers", "transfers of the point's size pending at once"},
                {"streams", {"one", "several"}, "", "one stream for all, or one stream per transfer"}};
    }
    SizePolicy size_policy() const override {
        SizePolicy p;
        p.min_bytes = std::size_t{256} << 10;
        p.max_bytes = std::size_t{16} << 20;
        return p;
    }
    std::unique_ptr<TransferSession> prepare(const Graph& graph, const Vertex& src, const Vertex& dst,
                                             const ParamSet&, std::size_t max_bytes,
                                             const MethodOptions& options) const override {
        return prepare_guarded(name(), [&]() -> std::unique_ptr<TransferSession> {
            const SizeCap cap =
                plan_route_buffers(options, std::min(max_bytes, size_policy().max_bytes), src, dst, kMaxInFlight);
            auto session = std::make_unique<InFlightSession>(src, dst, cap, options.timing,
                                                             name());
            session->context_ = route_context(graph, src, dst, cap, options);
            return session;
        });
    }
};

}  // namespace

std::unique_ptr<Characterizer> make_in_flight() { return std::make_unique<InFlightMethod>(); }

}  // namespace hwcomm::cuda
