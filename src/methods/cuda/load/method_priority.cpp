// priority: the pattern C's priority. One transfer per sample (its time is
// its latency, from the common release to its completion) on a route that a
// background load on the same route keeps busy:
//   alone   no load (the reference)
//   equal   the transfer's stream and the load's at the lowest priority
//   high    the transfer's stream at the highest priority, the load's at the lowest
// so the curves say whether priority buys bandwidth (large sizes) or only
// latency (small sizes). Stream priorities order kernels; whether the copy
// engines heed them is what this measures.
#include <map>
#include <memory>

#include "methods/cuda/common/graph_queries.hpp"
#include "methods/cuda/common/session_common.hpp"
#include "methods/cuda/load/load_methods.hpp"
#include "methods/cuda/load/route_lanes.hpp"

namespace hwcomm::cuda {

namespace {

class PrioritySession final : public TransferSession {
public:
    PrioritySession(const Vertex& src, const Vertex& dst, const SizeCap& cap, TimingMode mode, std::string method)
        : buffers_(src, dst, cap.max_bytes, 1), mode_(mode), max_bytes_(cap.max_bytes), method_(std::move(method)) {
        CudaLaneDef probe = buffers_.lane(0, 1, "transfer", method_);
        range_ = stream_priority_range(probe.device);
        current_ = &group("high");
        lanes_ = current_->lanes();
    }
    void set_axes(const std::map<std::string, nlohmann::json>& values) override {
        current_ = &group(values.at("priority").get<std::string>());
    }
    void warmup(std::size_t bytes, const std::string& v) override { current_->warmup(bytes, v); }
    void reset(std::size_t bytes, const std::string& v) override { current_->reset(bytes, v); }
    Sample measure(std::size_t bytes, const std::string& v) override { return current_->measure(bytes, v); }
    std::string verify(std::size_t bytes, const std::string& v) override { return current_->verify(bytes, v); }
    std::vector<LaneSpec> lanes() const override { return lanes_; }
    nlohmann::json context() const override {
        nlohmann::json j = context_;
        j.update(current_->context());
        j["priority"] = {{"least", range_.least},
                         {"greatest", range_.greatest},
                         {"buffers", buffers_.describe()},
                         {"how", "one transfer per sample; equal: transfer and load at the least priority; high: "
                                 "the transfer at the greatest, the load at the least"}};
        return j;
    }
    std::size_t max_bytes() const override { return max_bytes_; }

    nlohmann::json context_ = nlohmann::json::object();

private:
    RouteLaneGroup& group(const std::string& priority) {
        auto it = groups_.find(priority);
        if (it != groups_.end()) return *it->second;
        if (priority != "alone" && priority != "equal" && priority != "high")
            throw MeasurementError("priority must be alone, equal or high, not " + priority);
        auto g = std::make_unique<RouteLaneGroup>(mode_, max_bytes_);
        g->set_max_repetitions(1);
        CudaLaneDef def = buffers_.lane(0, 1, "transfer", method_);
        def.stream_priority = priority == "high" ? range_.greatest : range_.least;
        def.spec.params["stream_priority"] = std::to_string(def.stream_priority);
        g->add_lane(std::move(def));
        if (priority != "alone")
            g->set_background(std::make_unique<BackgroundLoad>(std::vector<LoadRoute>{buffers_.route()}, range_.least));
        return *groups_.emplace(priority, std::move(g)).first->second;
    }

    RouteBuffers buffers_;
    std::map<std::string, std::unique_ptr<RouteLaneGroup>> groups_;
    RouteLaneGroup* current_ = nullptr;
    std::vector<LaneSpec> lanes_;
    StreamPriorityRange range_;
    TimingMode mode_;
    std::size_t max_bytes_;
    std::string method_;
};

class PriorityMethod final : public RouteCharacterizer {
public:
    std::string name() const override { return "priority"; }
    std::string description() const override {
        return "one transfer on a high-priority stream against a low-priority load on the same route, beside the "
               "same transfer alone and at equal priority (copy engines)";
    }
    std::map<std::string, std::string> parameter_docs() const override {
        return {{"priority (axis)", "alone: no load; equal: transfer and load at the least priority; high: the "
                                    "transfer at the greatest, the load at the least"}};
    }
    std::vector<AxisSpec> axes() const override {
        return {{"priority", {"alone", "equal", "high"}, "", "the transfer alone, or against a low-priority load at "
                                                             "equal or high priority"}};
    }
    SizePolicy size_policy() const override {
        SizePolicy p;
        p.min_bytes = 4096;
        p.max_bytes = std::size_t{64} << 20;
        // Every 2nd octave (4 KiB, 16 KiB ... 64 MiB): a loaded sample waits for
        // every load chunk queued ahead of it (copy engines are FIFO), about
        // 80 ms on nvidia-h200-x2, so the run's 3 points per octave made this
        // method 173 s of a 425 s default run.
        p.points_per_octave = 0.5;
        return p;
    }
    std::unique_ptr<TransferSession> prepare(const Graph& graph, const Vertex& src, const Vertex& dst,
                                             const ParamSet&, std::size_t max_bytes,
                                             const MethodOptions& options) const override {
        return prepare_guarded(name(), [&]() -> std::unique_ptr<TransferSession> {
            // A transfer's wait behind the load starts at the gate's release, which only
            // the GPU's clock sees: event timing whatever was asked, and the record says so.
            const bool wall_asked = options.timing == TimingMode::Wall;
            const SizeCap cap = plan_route_buffers(options, std::min(max_bytes, size_policy().max_bytes), src, dst, 1);
            auto session = std::make_unique<PrioritySession>(src, dst, cap, TimingMode::Event, name());
            session->context_ = route_context(graph, src, dst, cap, options);
            if (wall_asked)
                session->context_["timing_note"] = "wall asked: a transfer's wait behind the load begins at the "
                                                   "gate's release, which only GPU events see";
            return session;
        });
    }
};

}  // namespace

std::unique_ptr<Characterizer> make_priority() { return std::make_unique<PriorityMethod>(); }

}  // namespace hwcomm::cuda
