// priority: the pattern C's priority. One transfer per sample (its time is
// its completion time, from the common release to its end) on a route that a
// background load on the same route keeps busy:
//   alone   no load (the reference)
//   equal   the transfer's stream and the load's at the least priority
//   high    the transfer's stream at the greatest priority, the load's at the least
// Stream priorities order the blocks the scheduler hands to the SMs, so the
// default engine is `sm`: the transfer is a copy kernel, the load copy
// kernels of short tiled blocks whose SM slots free up tile by tile. The copy
// engines do not honour stream priorities: they serve copies in the order
// queued (nvidia-h200-x2: equal and high both 77.8 ms at 4 KiB behind a queued
// load; nvidia-h100-x1: 78-82 ms, issue 22), so `ce` measures a queue, not
// the route, and runs only when asked (--priority-engines).
#include <map>
#include <memory>

#include "methods/cuda/common/cuda_check.hpp"
#include "methods/cuda/common/graph_queries.hpp"
#include "methods/cuda/common/session_common.hpp"
#include "methods/cuda/load/load_methods.hpp"
#include "methods/cuda/load/route_lanes.hpp"

namespace hwcomm::cuda {

namespace {

const std::vector<std::string>& engines() {
    static const std::vector<std::string> all{"sm", "ce"};
    return all;
}

class PrioritySession final : public TransferSession {
public:
    PrioritySession(const Vertex& src, const Vertex& dst, const SizeCap& cap, Executor engine, std::string method)
        : buffers_(src, dst, cap.max_bytes, 1), engine_(engine), max_bytes_(cap.max_bytes),
          method_(std::move(method)) {
        CudaLaneDef probe = buffers_.lane(0, 1, "transfer", method_, engine_);
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
                         {"engine", to_string(engine_)},
                         {"buffers", buffers_.describe()},
                         {"how", "one transfer per sample; equal: transfer and load at the least priority; high: "
                                 "the transfer at the greatest, the load at the least"}};
        if (engine_ == Executor::CopyEngine)
            j["priority"]["copy_engines"] =
                "copy engines serve copies in the order queued whatever the streams' priorities: the loaded times "
                "are the wait for the load queued ahead, not the route's bandwidth";
        // What a point is: the time to completion under load (printers show times, not a link's share).
        j["headline"] = {{"metric", "completion time"},
                         {"why", "one transfer's time from the common release to its end, against a load on the "
                                 "same route: a wait behind the load is part of it"}};
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
        // A wait behind the load begins at the gate's release, which only GPU events see.
        auto g = std::make_unique<RouteLaneGroup>(TimingMode::Event, max_bytes_);
        g->set_max_repetitions(1);
        CudaLaneDef def = buffers_.lane(0, 1, "transfer", method_, engine_);
        def.stream_priority = priority == "high" ? range_.greatest : range_.least;
        def.spec.params["stream_priority"] = std::to_string(def.stream_priority);
        g->add_lane(std::move(def));
        if (priority != "alone")
            g->set_background(
                std::make_unique<BackgroundLoad>(std::vector<LoadRoute>{buffers_.route()}, range_.least, engine_));
        return *groups_.emplace(priority, std::move(g)).first->second;
    }

    RouteBuffers buffers_;
    std::map<std::string, std::unique_ptr<RouteLaneGroup>> groups_;
    RouteLaneGroup* current_ = nullptr;
    std::vector<LaneSpec> lanes_;
    StreamPriorityRange range_;
    Executor engine_;
    std::size_t max_bytes_;
    std::string method_;
};

class PriorityMethod final : public RouteCharacterizer {
public:
    std::string name() const override { return "priority"; }
    std::string description() const override {
        return "one transfer on a high-priority stream against a low-priority load on the same route, beside the "
               "same transfer alone and at equal priority (copy kernels; the copy engines, which ignore stream "
               "priorities, with --priority-engines ce)";
    }
    std::vector<OptionSpec> options() const override {
        return {{"priority-engines", OptionType::String, "sm",
                 "priority: who moves the transfer and the load: sm (copy kernels; stream priorities order their "
                 "blocks), ce (copy engines: they ignore stream priorities, so the loaded points are a queue's "
                 "wait), both",
                 {"sm", "ce", "both"}}};
    }
    std::vector<ParamSet> parameter_sets(const Graph&, const Vertex&, const Vertex&,
                                         const MethodOptions& options) const override {
        const std::string asked = options.values.string_or("priority-engines", "sm");
        std::vector<ParamSet> sets;
        for (const std::string& e : engines())
            if (asked == "both" || asked == e) sets.push_back({{"engine", e}});
        return sets;
    }
    std::map<std::string, std::string> parameter_docs() const override {
        return {{"engine", "sm: the transfer a copy kernel, the load copy kernels of short tiled blocks; ce: "
                           "copy engines (cudaMemcpyAsync), which serve copies in queue order"},
                {"priority (axis)", "alone: no load; equal: transfer and load at the least priority; high: the "
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
        // Every 2nd octave (4 KiB, 16 KiB ... 64 MiB): on the copy engines a
        // loaded sample waits for every load chunk queued ahead of it, about
        // 80 ms on nvidia-h200-x2, so the run's 3 points per octave made this
        // method 173 s of a 425 s default run.
        p.points_per_octave = 0.5;
        return p;
    }
    std::unique_ptr<TransferSession> prepare(const Graph& graph, const Vertex& src, const Vertex& dst,
                                             const ParamSet& params, std::size_t max_bytes,
                                             const MethodOptions& options) const override {
        return prepare_guarded(name(), [&]() -> std::unique_ptr<TransferSession> {
            const Executor engine = executor_from_string(param_or_throw(params, "engine", engines(), name()));
            const SizeCap cap = plan_route_buffers(options, std::min(max_bytes, size_policy().max_bytes), src, dst, 1);
            auto session = std::make_unique<PrioritySession>(src, dst, cap, engine, name());
            session->context_ = route_context(graph, src, dst, cap, options);
            if (options.timing == TimingMode::Wall)
                session->context_["timing_note"] = "wall asked: a transfer's wait behind the load begins at the "
                                                   "gate's release, which only GPU events see";
            return session;
        });
    }
};

}  // namespace

std::unique_ptr<Characterizer> make_priority() { return std::make_unique<PriorityMethod>(); }

}  // namespace hwcomm::cuda
