#include "methods/cuda/um/single_shot_session.hpp"

#include <cmath>

#include "core/error.hpp"
#include "methods/cuda/common/pattern.hpp"
#include "methods/cuda/um/host_residency.hpp"
#include "platform/clock.hpp"
#include "platform/page_placement.hpp"

namespace hwcomm::cuda {

SingleShotSession::SingleShotSession(int device, TimingMode mode, std::size_t max_bytes)
    : device_(device), stream_(device), start_(device), stop_(device), mode_(mode), max_bytes_(max_bytes) {
    context_["timing_mode"] = to_string(mode);
    context_["stream_device"] = device;
    context_["repetitions"] = "1 per sample: the pages move with the first transfer; reset() puts them back";
    if (mode == TimingMode::Event) context_["gate"] = "blocking kernel holds the stream while the transfer is queued";
}

void SingleShotSession::set_host_transfer(std::function<double(std::size_t)> transfer, const std::string& why) {
    host_transfer_ = std::move(transfer);
    mode_ = TimingMode::Wall;
    context_["timing_mode"] = "wall";
    context_["timing_note"] = why;
    context_.erase("gate");
}

void SingleShotSession::reset(std::size_t bytes, const std::string&) {
    if (bytes > max_bytes_)
        throw MeasurementError("size " + std::to_string(bytes) + " exceeds the session's managed buffer (" +
                               std::to_string(max_bytes_) + " bytes)");
    seed_ = seed_for_size(bytes, ++fills_);
    put_back(bytes, seed_);
    reset_bytes_ = bytes;
    fresh_ = true;
    transferred_ = false;
}

double SingleShotSession::timed(std::size_t bytes, bool gated) {
    fresh_ = false;
    transferred_ = true;
    if (host_transfer_) return host_transfer_(bytes);
    ScopedDevice on(device_);
    if (mode_ == TimingMode::Wall) {
        const double t0 = steady_seconds();
        enqueue_transfer(bytes, stream_.get());
        stream_.synchronize();
        return steady_seconds() - t0;
    }
    const bool use_gate = gated && gate_enabled_;
    try {
        GateRelease release(use_gate ? &gate_ : nullptr);
        if (use_gate) gate_.hold(stream_);
        start_.record(stream_);
        enqueue_transfer(bytes, stream_.get());
        stop_.record(stream_);
    } catch (...) {
        stream_.synchronize_noexcept();
        throw;
    }
    stop_.synchronize();
    if (use_gate && gate_.timed_out()) {
        // Queueing the transfer blocked the host behind the held stream: the
        // interval holds the stall. Drop the gate, put the pages back, again.
        gate_enabled_ = false;
        context_["gate"] = "dropped: the blocking kernel timed out while the transfer was queued";
        reset(bytes, "");
        return timed(bytes);
    }
    return stop_.seconds_since(start_);
}

// A kernel's first launch loads its module and waits for an idle device:
// behind the blocking kernel it would wait the gate's timeout out (as the
// copy kernels of the lane groups did, lane_group.cpp). Once without it; the
// caller resets after it.
void SingleShotSession::load_kernels(std::size_t bytes, const std::string& variant) {
    if (kernels_loaded_ || mode_ != TimingMode::Event || !gate_enabled_ || host_transfer_) return;
    reset(bytes, variant);
    timed(bytes, false);
    kernels_loaded_ = true;
}

void SingleShotSession::warmup(std::size_t bytes, const std::string& variant) {
    load_kernels(bytes, variant);
    reset(bytes, variant);
    const HostResidency before = host_residency(pages(), bytes);
    timed(bytes);
    const HostResidency after = host_residency(pages(), bytes);
    context_["residency"][std::to_string(bytes)] = {{"pages", before.pages},
                                                    {"on_host_after_reset", before.present()},
                                                    {"on_host_after_transfer", after.present()}};
    context_["residency_note"] =
        "pages present in the CPU's page tables (move_pages query), per size, seen at the warm-up";
}

Sample SingleShotSession::measure(std::size_t bytes, const std::string& variant) {
    load_kernels(bytes, variant);  // when no warm-up ran (--warmup 0); its transfer leaves fresh_ false
    if (!fresh_ || bytes != reset_bytes_) reset(bytes, variant);
    Sample s;
    s.seconds = timed(bytes);
    s.repetitions = 1;
    s.bytes_per_rep = static_cast<double>(bytes);
    const double pages_moved = std::ceil(static_cast<double>(bytes) / static_cast<double>(page_size()));
    // At one page this is the cost of one first touch (or one page's prefetch).
    s.metrics["time_per_page"] = Metric{s.seconds / pages_moved * 1e6, "us"};
    return s;
}

std::string SingleShotSession::verify(std::size_t bytes, const std::string&) {
    if (bytes != reset_bytes_ || !transferred_)
        return "nothing was transferred at " + std::to_string(bytes) + " bytes before verify";
    return check_after(bytes, seed_);
}

}  // namespace hwcomm::cuda
