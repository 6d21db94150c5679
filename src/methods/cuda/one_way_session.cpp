#include "methods/cuda/one_way_session.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "methods/cuda/pattern.hpp"
#include "methods/cuda/sizing.hpp"
#include "platform/clock.hpp"

namespace hwcomm::cuda {

TimingMode timing_mode_from_string(const std::string& text) {
    if (text == "event") return TimingMode::Event;
    if (text == "wall") return TimingMode::Wall;
    throw UsageError("unknown timing mode '" + text + "' (event|wall)");
}

const char* to_string(TimingMode mode) { return mode == TimingMode::Event ? "event" : "wall"; }

OneWaySession::OneWaySession(int stream_device, TimingMode mode, std::size_t max_bytes)
    : stream_(stream_device), start_(stream_device), stop_(stream_device), mode_(mode), max_bytes_(max_bytes) {
    context_["timing_mode"] = to_string(mode);
    context_["stream_device"] = stream_device;
    context_["repetitions"] = {{"target_interval_s", kTargetIntervalS}, {"max", kMaxRepetitions}};
}

void OneWaySession::set_endpoints(const BufferRef& src, const BufferRef& dst, bool gate_ok,
                                  const std::string& gate_note) {
    src_ = src;
    dst_ = dst;
    gate_enabled_ = gate_ok;
    if (mode_ == TimingMode::Event)
        context_["gate"] = gate_ok ? "blocking kernel holds the stream while copies are queued" : gate_note;
    context_["verify"] = (dst.host && !dst.check_on_gpu) ? "host check of the destination"
                                                          : "GPU kernel check of the destination";
}

void OneWaySession::force_wall(const std::string& why) {
    mode_ = TimingMode::Wall;
    context_["timing_mode"] = "wall";
    context_["timing_note"] = why;
    context_.erase("gate");
}

void OneWaySession::prepare_size(std::size_t bytes) {
    if (prepared_ && bytes == prepared_bytes_) return;
    if (bytes > max_bytes_)
        throw MeasurementError("size " + std::to_string(bytes) + " exceeds the session's buffers (" +
                               std::to_string(max_bytes_) + " bytes)");
    seed_ = seed_for_size(bytes, ++fills_);
    patterns_.fill(src_, bytes, seed_, false);
    patterns_.fill(dst_, bytes, seed_, true);
    prepared_bytes_ = bytes;
    prepared_ = true;
}

double OneWaySession::timed_copies(std::size_t bytes, std::size_t reps) {
    ScopedDevice on(stream_.device());
    const bool use_gate = gate_enabled_;
    try {
        GateRelease release(use_gate ? &gate_ : nullptr);
        if (use_gate) gate_.hold(stream_);
        start_.record(stream_);
        for (std::size_t r = 0; r < reps; ++r) enqueue_copy(bytes, stream_.get());
        stop_.record(stream_);
    } catch (...) {
        stream_.synchronize_noexcept();
        throw;
    }
    stop_.synchronize();
    if (use_gate && gate_.timed_out()) {
        // Queueing stalled the host behind the held stream: the interval holds
        // the stall. Drop the gate for this session and time again.
        gate_enabled_ = false;
        context_["gate"] = "dropped: the blocking kernel timed out while copies were queued";
        return timed_copies(bytes, reps);
    }
    return stop_.seconds_since(start_);
}

void OneWaySession::warmup(std::size_t bytes, const std::string&) {
    prepare_size(bytes);
    if (mode_ == TimingMode::Wall) {
        copy_blocking(bytes);
        copy_blocking(bytes);
        return;
    }
    timed_copies(bytes, 1);
    const double one = timed_copies(bytes, 1);
    // A planned batch also warms the queueing path the samples will take.
    const std::size_t reps = plan_repetitions(one);
    const double batch = reps > 1 ? timed_copies(bytes, reps) / static_cast<double>(reps) : one;
    seconds_per_rep_[bytes] = std::min(one, batch);
}

Sample OneWaySession::measure(std::size_t bytes, const std::string&) {
    prepare_size(bytes);
    Sample s;
    s.bytes_per_rep = static_cast<double>(bytes);
    if (mode_ == TimingMode::Wall) {
        const double t0 = steady_seconds();
        copy_blocking(bytes);
        s.seconds = steady_seconds() - t0;
        s.repetitions = 1;
        return s;
    }
    const auto it = seconds_per_rep_.find(bytes);
    s.repetitions = plan_repetitions(it == seconds_per_rep_.end() ? 0.0 : it->second);
    s.seconds = timed_copies(bytes, s.repetitions);
    // Keep the plan of the first sample for the later ones: every sample of
    // a size then batches the same number of copies.
    if (it == seconds_per_rep_.end()) seconds_per_rep_[bytes] = s.seconds / static_cast<double>(s.repetitions);
    return s;
}

std::string OneWaySession::verify(std::size_t bytes, const std::string&) {
    if (!prepared_ || bytes != prepared_bytes_)
        return "nothing was transferred at " + std::to_string(bytes) + " bytes before verify";
    return patterns_.check(dst_, bytes, seed_);
}

}  // namespace hwcomm::cuda
