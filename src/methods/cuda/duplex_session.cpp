#include "methods/cuda/duplex_session.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "methods/cuda/cuda_check.hpp"
#include "methods/cuda/duplex_math.hpp"
#include "methods/cuda/pattern.hpp"
#include "methods/cuda/sizing.hpp"
#include "platform/clock.hpp"

namespace hwcomm::cuda {

namespace {
// Each lane queues up to this many copies per sample: both lanes together stay
// within the one-way cap.
constexpr std::size_t kMaxRepsPerLane = kMaxRepetitions / 2;
}  // namespace

DuplexSession::DuplexSession(int device_a, int device_b, TimingMode mode, std::size_t max_bytes)
    : stream_a_(device_a),
      stream_b_(device_b),
      a_start_(device_a),
      a_stop_(device_a),
      b_start_(device_b),
      b_stop_(device_b),
      mode_(mode),
      max_bytes_(max_bytes) {
    if (device_a != device_b) {
        observer_.emplace(device_a);
        b_stop_seen_.emplace(device_a);
    }
    context_["timing_mode"] = to_string(mode);
    context_["lanes"] = {{"fwd_stream_device", device_a}, {"rev_stream_device", device_b}};
    context_["duplex_timing"] =
        device_a == device_b
            ? "both streams on one GPU: starts and stops compared directly"
            : "streams on two GPUs: an observer stream on the fwd GPU waits for the rev stop event, so the rev stop "
              "is seen late by the cross-GPU signal (conservative)";
    context_["repetitions"] = {{"target_interval_s", kTargetIntervalS}, {"max_per_direction", kMaxRepsPerLane}};
    if (mode == TimingMode::Event) context_["gate"] = "one blocking kernel per stream, one flag: released together";
}

void DuplexSession::set_lanes(const BufferRef& a_src, const BufferRef& a_dst, const BufferRef& b_src,
                              const BufferRef& b_dst) {
    a_src_ = a_src;
    a_dst_ = a_dst;
    b_src_ = b_src;
    b_dst_ = b_dst;
}

void DuplexSession::prepare_size(std::size_t bytes) {
    if (prepared_ && bytes == prepared_bytes_) return;
    if (bytes > max_bytes_)
        throw MeasurementError("size " + std::to_string(bytes) + " exceeds the session's buffers (" +
                               std::to_string(max_bytes_) + " bytes)");
    seed_a_ = seed_for_size(bytes, ++fills_);
    seed_b_ = seed_for_size(bytes, ++fills_);
    patterns_.fill(a_src_, bytes, seed_a_, false);
    patterns_.fill(a_dst_, bytes, seed_a_, true);
    patterns_.fill(b_src_, bytes, seed_b_, false);
    patterns_.fill(b_dst_, bytes, seed_b_, true);
    prepared_bytes_ = bytes;
    prepared_ = true;
}

Sample DuplexSession::timed(std::size_t bytes, std::size_t reps) {
    const bool use_gate = mode_ == TimingMode::Event && gate_enabled_;
    double host_t0 = 0;
    try {
        GateRelease release(use_gate ? &gate_ : nullptr);
        if (use_gate) {
            gate_.hold(stream_a_);
            gate_.hold(stream_b_);
        }
        host_t0 = steady_seconds();
        a_start_.record(stream_a_);
        b_start_.record(stream_b_);
        for (std::size_t r = 0; r < reps; ++r) {
            enqueue_a(bytes, stream_a_.get());
            enqueue_b(bytes, stream_b_.get());
        }
        a_stop_.record(stream_a_);
        b_stop_.record(stream_b_);
        if (observer_) {
            HWCOMM_CUDA_CHECK(cudaStreamWaitEvent(observer_->get(), b_stop_.get(), 0));
            b_stop_seen_->record(*observer_);
        }
    } catch (...) {
        stream_a_.synchronize_noexcept();
        stream_b_.synchronize_noexcept();
        if (observer_) observer_->synchronize_noexcept();
        throw;
    }
    a_stop_.synchronize();
    b_stop_.synchronize();
    if (b_stop_seen_) b_stop_seen_->synchronize();
    const double host_seconds = steady_seconds() - host_t0;
    if (use_gate && gate_.timed_out()) {
        gate_enabled_ = false;
        context_["gate"] = "dropped: the blocking kernel timed out while copies were queued";
        return timed(bytes, reps);
    }

    DuplexEvents ev;
    ev.a_duration_s = a_stop_.seconds_since(a_start_);
    ev.b_duration_s = b_stop_.seconds_since(b_start_);
    if (b_stop_seen_) {
        ev.b_stop_on_a_s = b_stop_seen_->seconds_since(a_start_);
    } else {
        ev.b_start_on_a_s = b_start_.seconds_since(a_start_);
        ev.b_stop_on_a_s = b_stop_.seconds_since(a_start_);
    }
    const DuplexTiming t = combine_duplex(ev);

    const double n = static_cast<double>(reps);
    const double lane_bytes = static_cast<double>(bytes) * n;
    Sample s;
    s.repetitions = reps;
    s.bytes_per_rep = 2.0 * static_cast<double>(bytes);
    s.seconds = mode_ == TimingMode::Event ? t.total_s : host_seconds;
    s.extras = {{"fwd_s", ev.a_duration_s / n},
                {"rev_s", ev.b_duration_s / n},
                {"start_skew_s", t.start_skew_s},
                {"stop_skew_s", t.stop_skew_s}};
    if (ev.a_duration_s > 0) s.extras["fwd_gbps"] = lane_bytes / ev.a_duration_s / 1e9;
    if (ev.b_duration_s > 0) s.extras["rev_gbps"] = lane_bytes / ev.b_duration_s / 1e9;
    return s;
}

void DuplexSession::warmup(std::size_t bytes, const std::string&) {
    prepare_size(bytes);
    timed(bytes, 1);
    const Sample one = timed(bytes, 1);
    seconds_per_rep_[bytes] = one.seconds;
    if (mode_ == TimingMode::Event) {
        const std::size_t reps = plan_repetitions(one.seconds, kTargetIntervalS, kMaxRepsPerLane);
        if (reps > 1) {
            const Sample batch = timed(bytes, reps);
            seconds_per_rep_[bytes] = std::min(one.seconds, batch.seconds / static_cast<double>(reps));
        }
    }
}

Sample DuplexSession::measure(std::size_t bytes, const std::string&) {
    prepare_size(bytes);
    if (mode_ == TimingMode::Wall) return timed(bytes, 1);
    const auto it = seconds_per_rep_.find(bytes);
    const std::size_t reps =
        plan_repetitions(it == seconds_per_rep_.end() ? 0.0 : it->second, kTargetIntervalS, kMaxRepsPerLane);
    Sample s = timed(bytes, reps);
    if (it == seconds_per_rep_.end()) seconds_per_rep_[bytes] = s.seconds / static_cast<double>(reps);
    return s;
}

std::string DuplexSession::verify(std::size_t bytes, const std::string&) {
    if (!prepared_ || bytes != prepared_bytes_)
        return "nothing was transferred at " + std::to_string(bytes) + " bytes before verify";
    const std::string fwd = patterns_.check(a_dst_, bytes, seed_a_);
    const std::string rev = patterns_.check(b_dst_, bytes, seed_b_);
    if (fwd.empty() && rev.empty()) return {};
    std::string msg;
    if (!fwd.empty()) msg = "fwd: " + fwd;
    if (!rev.empty()) msg += (msg.empty() ? "" : "; ") + std::string("rev: ") + rev;
    return msg;
}

}  // namespace hwcomm::cuda
