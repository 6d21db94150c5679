#include "methods/cuda/lanes/lane_group.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "methods/cuda/common/cuda_check.hpp"
#include "methods/cuda/common/pattern.hpp"
#include "methods/cuda/common/sizing.hpp"
#include "methods/cuda/lanes/lane_window.hpp"
#include "platform/clock.hpp"

namespace hwcomm::cuda {

CudaLaneGroup::CudaLaneGroup(TimingMode mode, std::size_t max_bytes) : mode_(mode), max_bytes_(max_bytes) {
    context_["timing_mode"] = to_string(mode);
}

void CudaLaneGroup::add_lane(CudaLaneDef def) {
    Lane lane;
    lane.stream = def.stream_priority != 0 ? std::make_unique<Stream>(def.device, def.stream_priority)
                                           : std::make_unique<Stream>(def.device);
    lane.start = std::make_unique<Event>(def.device);
    lane.stop = std::make_unique<Event>(def.device);
    if (!lanes_.empty() && def.device != lanes_.front().def.device) {
        lane.observer = std::make_unique<Stream>(lanes_.front().def.device);
        lane.stop_seen = std::make_unique<Event>(lanes_.front().def.device);
    }
    lane.def = std::move(def);
    lanes_.push_back(std::move(lane));
    if (lanes_.size() == 1) context_["stream_device"] = lanes_.front().def.device;
    context_["repetitions"] = {{"target_interval_s", kTargetIntervalS}, {"max_per_lane", reps_cap()}};
    if (mode_ == TimingMode::Event && gate_enabled_)
        context_["gate"] = lanes_.size() == 1 ? "blocking kernel holds the stream while copies are queued"
                                              : "one blocking kernel per lane stream, one flag: released together";
    if (lanes_.size() > 1) {
        bool cross = false;
        for (const Lane& l : lanes_) cross = cross || l.observer != nullptr;
        context_["lane_timing"] =
            cross ? "lanes on several GPUs: an observer stream on the reference GPU waits for each other GPU's "
                    "stop event, so those stops are seen late by the cross-GPU signal (conservative)"
                  : "every lane on one GPU: starts and stops compared directly";
    }
}

void CudaLaneGroup::disable_gate(const std::string& why) {
    gate_enabled_ = false;
    if (mode_ == TimingMode::Event) context_["gate"] = why;
}

void CudaLaneGroup::force_wall(const std::string& why) {
    mode_ = TimingMode::Wall;
    context_["timing_mode"] = "wall";
    context_["timing_note"] = why;
    context_.erase("gate");
}

std::size_t CudaLaneGroup::reps_cap() const {
    const std::size_t cap = std::max<std::size_t>(1, kMaxRepetitions / std::max<std::size_t>(1, lanes_.size()));
    return reps_limit_ ? std::min(cap, reps_limit_) : cap;
}

void CudaLaneGroup::check_size(std::size_t bytes) const {
    if (lanes_.empty()) throw MeasurementError("internal: a lane group without lanes");
    if (bytes > max_bytes_)
        throw MeasurementError("size " + std::to_string(bytes) + " exceeds the session's buffers (" +
                               std::to_string(max_bytes_) + " bytes)");
}

void CudaLaneGroup::reset(std::size_t bytes, const std::string&) {
    check_size(bytes);
    for (Lane& lane : lanes_) {
        lane.seed = seed_for_size(bytes, ++fills_);
        patterns_.fill(lane.def.src, bytes, lane.seed, false);
        // A destination the CPU fills is poisoned once per session and size
        // reached: afterwards it holds an earlier fill's pattern, which differs
        // from this seed's in every word (seeds never repeat within a session).
        // Poisoning 1 GiB of pageable memory on one core again before every
        // sample was most of a pageable device-to-host point's time.
        const bool poisoned_once = PatternOps::filled_by_cpu(lane.def.dst);
        if (!poisoned_once || bytes > lane.poisoned_bytes) {
            patterns_.fill(lane.def.dst, bytes, lane.seed, true);
            if (poisoned_once) lane.poisoned_bytes = bytes;
        }
    }
    reset_bytes_ = bytes;
    was_reset_ = true;
}

Sample CudaLaneGroup::timed(std::size_t bytes, std::size_t reps, bool gated) {
    const bool use_gate = gated && mode_ == TimingMode::Event && gate_enabled_;
    auto drain = [this]() noexcept {
        if (background_) background_->drain_noexcept();
        for (Lane& l : lanes_) {
            l.stream->synchronize_noexcept();
            if (l.observer) l.observer->synchronize_noexcept();
        }
    };
    double host_t0 = 0;
    try {
        GateRelease release(use_gate ? &gate_ : nullptr);
        if (use_gate)
            for (Lane& l : lanes_) gate_.hold(*l.stream);
        if (use_gate && background_) background_->hold(gate_);
        host_t0 = steady_seconds();
        if (background_) {  // queued first: without a gate they start ahead of the measured lanes
            const auto it = seconds_per_rep_.find(bytes);
            background_->enqueue(it != seconds_per_rep_.end() ? it->second * static_cast<double>(reps) : last_window_s_);
        }
        for (Lane& l : lanes_) l.start->record(*l.stream);
        for (std::size_t r = 0; r < reps; ++r)
            for (Lane& l : lanes_) {
                ScopedDevice on(l.def.device);
                l.def.enqueue(bytes, l.stream->get());
            }
        for (Lane& l : lanes_) {
            l.stop->record(*l.stream);
            if (l.observer) {
                HWCOMM_CUDA_CHECK(cudaStreamWaitEvent(l.observer->get(), l.stop->get(), 0));
                l.stop_seen->record(*l.observer);
            }
        }
    } catch (...) {
        drain();
        throw;
    }
    for (Lane& l : lanes_) {
        l.stop->synchronize();
        if (l.stop_seen) l.stop_seen->synchronize();
    }
    const double host_seconds = steady_seconds() - host_t0;
    if (use_gate && gate_.timed_out()) {
        // Queueing stalled the host behind the held streams: the interval holds
        // the stall. Drop the gate for this session and time again.
        gate_enabled_ = false;
        context_["gate"] = "dropped: the blocking kernel timed out while copies were queued";
        if (background_) background_->drain_noexcept();
        return timed(bytes, reps);
    }

    const Lane& ref = lanes_.front();
    std::vector<LaneEvents> events;
    std::vector<LaneEvents> measured_events;
    for (const Lane& l : lanes_) {
        LaneEvents e;
        e.duration_s = l.stop->seconds_since(*l.start);
        if (l.stop_seen) {
            e.stop_on_ref_s = l.stop_seen->seconds_since(*ref.start);
        } else {
            e.start_on_ref_s = l.start->seconds_since(*ref.start);
            e.stop_on_ref_s = l.stop->seconds_since(*ref.start);
        }
        events.push_back(e);
        if (l.def.spec.role != "load") measured_events.push_back(e);
    }
    const LaneWindow all = combine_lanes(events);
    const LaneWindow measured = combine_lanes(measured_events);

    const double n = static_cast<double>(reps);
    Sample s;
    s.repetitions = reps;
    s.seconds = mode_ == TimingMode::Event ? measured.window_s : host_seconds;
    s.bytes_per_rep = static_cast<double>(bytes) * static_cast<double>(measured_events.size());
    last_window_s_ = measured.window_s;
    if (lanes_.size() > 1 || background_) {
        for (std::size_t i = 0; i < lanes_.size(); ++i)
            s.lanes.push_back({lanes_[i].def.spec.label, events[i].duration_s, static_cast<double>(bytes)});
        s.extras["start_skew_max_s"] = all.max_start_skew_s;
        s.extras["stop_skew_max_s"] = all.max_stop_skew_s;
    }
    if (background_) background_->account(measured.window_s, reps, s);
    if (lane_extras_) {
        for (std::size_t i = 0; i < lanes_.size(); ++i) {
            const std::string& label = lanes_[i].def.spec.label;
            s.extras[label + "_s"] = events[i].duration_s / n;
            if (events[i].duration_s > 0)
                s.extras[label + "_gbps"] = static_cast<double>(bytes) * n / events[i].duration_s / 1e9;
        }
        if (all.lanes.size() >= 2) {
            s.extras["start_skew_s"] = all.lanes[1].start_s - all.lanes[0].start_s;
            s.extras["stop_skew_s"] = all.lanes[1].stop_s - all.lanes[0].stop_s;
        }
    }
    return s;
}

Sample CudaLaneGroup::timed_wall(std::size_t bytes, std::size_t reps) {
    if (lanes_.size() == 1 && blocking_copy_) {
        const double t0 = steady_seconds();
        for (std::size_t r = 0; r < reps; ++r) blocking_copy_(bytes);
        Sample s;
        s.seconds = steady_seconds() - t0;
        s.repetitions = reps;
        s.bytes_per_rep = static_cast<double>(bytes);
        return s;
    }
    return timed(bytes, reps);
}

namespace {
constexpr double kOneRepWarmIntervals = 10;
}  // namespace

void CudaLaneGroup::warmup(std::size_t bytes, const std::string& variant) {
    reset(bytes, variant);
    if (mode_ == TimingMode::Wall) {
        // Wall-timed samples are one copy each: past kOneRepWarmIntervals
        // target intervals a second warm copy only costs its time (memcpy-h2h's
        // 1 GiB pageable copy, 140 ms on the H100 hosts).
        const double first = timed_wall(bytes, 1).seconds;
        seconds_per_rep_[bytes] =
            first >= kOneRepWarmIntervals * target_interval() ? first : timed_wall(bytes, 1).seconds;
        return;
    }
    // CUDA loads a kernel's module at its first launch (lazy loading, the
    // default since CUDA 12.2) and waits for the device to go idle first:
    // behind the blocking kernel that first launch waited the gate's timeout
    // out and the gate was dropped for the whole record (tma-copy-d2d and
    // zero-copy-read, the first records of their kernels on each GPU, 0.5 s
    // each and their small sizes timed with the enqueue cost). One copy per
    // lane without the gate loads every kernel the lanes queue.
    load_kernels(bytes);
    const double first = timed(bytes, 1).seconds;
    // A first copy of kOneRepWarmIntervals target intervals makes every sample
    // one copy, whatever a second would say: only the warming was needed
    // (one copy of 30-60 ms less per large pageable point).
    if (first >= kOneRepWarmIntervals * target_interval()) {
        seconds_per_rep_[bytes] = first;
        return;
    }
    const double one = timed(bytes, 1).seconds;
    // A planned batch also warms the queueing path the samples will take.
    const std::size_t reps = plan_repetitions(one, target_interval(), reps_cap());
    const double batch = reps > 1 ? timed(bytes, reps).seconds / static_cast<double>(reps) : one;
    seconds_per_rep_[bytes] = std::min(one, batch);
}

void CudaLaneGroup::load_kernels(std::size_t bytes) {
    if (kernels_loaded_ || mode_ != TimingMode::Event || !gate_enabled_) return;
    timed(bytes, 1, false);
    kernels_loaded_ = true;
}

Sample CudaLaneGroup::measure(std::size_t bytes, const std::string& variant) {
    // Kernels load in the warm-up only: an untimed copy here, after the
    // sample's reset, would leave the pattern the sample is checked against
    // (a zero-copy session keeps its reset). With --warmup 0 the first sample
    // loads them, and a gate that times out is dropped and says so.
    if (!was_reset_ || reset_bytes_ != bytes) reset(bytes, variant);
    if (mode_ == TimingMode::Wall) return timed_wall(bytes, 1);
    const auto it = seconds_per_rep_.find(bytes);
    const std::size_t reps =
        plan_repetitions(it == seconds_per_rep_.end() ? 0.0 : it->second, target_interval(), reps_cap());
    Sample s = background_ ? timed_under_load(bytes, reps) : timed(bytes, reps);
    // Keep the plan of the first sample for the later ones: every sample of a
    // size then batches the same number of copies.
    if (it == seconds_per_rep_.end()) seconds_per_rep_[bytes] = s.seconds / static_cast<double>(reps);
    return s;
}

double CudaLaneGroup::target_interval() const { return background_ ? kLoadTargetIntervalS : kTargetIntervalS; }

void CudaLaneGroup::set_background(std::unique_ptr<BackgroundLoad> load) {
    if (mode_ != TimingMode::Event)
        throw MeasurementError("a transfer under load needs event timing (the load lanes are timed by events)");
    background_ = std::move(load);
    context_["load_lanes"] = background_->context();
    context_["repetitions"]["target_interval_s"] = target_interval();
}

void CudaLaneGroup::attach_load(const Graph&, const std::vector<LoadRoute>& routes, const MethodOptions&) {
    set_background(std::make_unique<BackgroundLoad>(routes));
}

// A sample whose load stopped before the measured window closed is taken
// again with a longer load (twice at most); load_covered says if it still fell short.
Sample CudaLaneGroup::timed_under_load(std::size_t bytes, std::size_t reps) {
    Sample s = timed(bytes, reps);
    for (int retry = 0; retry < 2 && !background_->covered(); ++retry) {
        background_->lengthen();
        s = timed(bytes, reps);
    }
    return s;
}

std::vector<LaneSpec> CudaLaneGroup::lanes() const {
    std::vector<LaneSpec> out;
    for (const Lane& l : lanes_) out.push_back(l.def.spec);
    if (background_)
        for (LaneSpec& spec : background_->specs()) out.push_back(std::move(spec));
    return out;
}

std::string CudaLaneGroup::verify(std::size_t bytes, const std::string&) {
    if (!was_reset_ || bytes != reset_bytes_)
        return "nothing was transferred at " + std::to_string(bytes) + " bytes before verify";
    std::string msg;
    for (Lane& l : lanes_) {
        const std::string wrong = patterns_.check(l.def.dst, bytes, l.seed);
        if (wrong.empty()) continue;
        if (!msg.empty()) msg += "; ";
        msg += lanes_.size() > 1 ? l.def.spec.label + ": " + wrong : wrong;
    }
    return msg;
}

}  // namespace hwcomm::cuda
