#pragma once
// A measurement of one or more CUDA lanes started together. Each lane is one
// stream on one GPU that queues copies (or copy kernels) from a source to a
// destination buffer. Every lane's stream is held by one blocking kernel
// (nvbench's technique) while its copies are queued, and all are released by
// one host write, so the lanes start at the same instant and enqueue cost
// stays out of the timings.
//
// Per sample:  reset (untimed: fresh pattern in every source, poisoned
// destinations) -> [gate holds every stream] start events, N copies per lane,
// stop events [release] -> verify (untimed: every destination holds its
// lane's pattern). Sample::seconds is the common window, from the earliest
// lane start to the latest lane stop on the reference GPU's clock
// (lane_window.hpp); Sample::lanes carries each lane's own seconds.
//
// Wall mode (the original study): host steady clock around one synchronous
// copy (one lane with a blocking copy) or around queueing and synchronizing
// every lane (no gate).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "methods/characterizer.hpp"
#include "methods/cuda/common/blocking_gate.hpp"
#include "methods/cuda/common/cuda_handles.hpp"
#include "methods/cuda/common/pattern_ops.hpp"
#include "methods/cuda/lanes/background_load.hpp"
#include "methods/cuda/lanes/executor.hpp"

namespace hwcomm::cuda {

// TimingMode (event | wall): methods/method_options.hpp, the run's --timing.

struct CudaLaneDef {
    LaneSpec spec;      // label, method, endpoints; role "measured" or "load"
    int device = -1;    // the GPU whose stream queues the copies
    BufferRef src, dst; // for the pattern fill and check
    EnqueueCopy enqueue;
    int stream_priority = 0;  // 0: the default; else cudaStreamCreateWithPriority's value
};

class CudaLaneGroup : public TransferSession {
public:
    void warmup(std::size_t bytes, const std::string& variant) override;
    void reset(std::size_t bytes, const std::string& variant) override;
    Sample measure(std::size_t bytes, const std::string& variant) override;
    std::string verify(std::size_t bytes, const std::string& variant) override;
    nlohmann::json context() const override { return context_; }
    std::size_t max_bytes() const override { return max_bytes_; }
    std::vector<LaneSpec> lanes() const override;
    // --under-load: background lanes on `routes`, released with the measured
    // lanes by the same gate (event timing only).
    void attach_load(const Graph& graph, const std::vector<LoadRoute>& routes, const MethodOptions& options) override;

protected:
    CudaLaneGroup(TimingMode mode, std::size_t max_bytes);

    // The first lane added is the reference: its GPU's clock times the window.
    void add_lane(CudaLaneDef def);
    // One-lane wall mode: a synchronous copy timed by the host clock.
    void set_blocking_copy(std::function<void(std::size_t)> copy) { blocking_copy_ = std::move(copy); }
    // Queueing blocks the host (pageable memory): no gate, events bracket the copies as queued.
    void disable_gate(const std::string& why);
    // For copies the CPU does (host to host): always host-clock timing.
    void force_wall(const std::string& why);
    // Extras "<label>_s", "<label>_gbps" per lane and the start/stop skew of
    // lane 1 against lane 0 (the duplex figures).
    void report_lane_extras() { lane_extras_ = true; }
    TimingMode mode() const { return mode_; }
    // Background lanes (role "load") for every sample; samples then span at
    // least kLoadTargetIntervalS so the load's share inside them is seen.
    void set_background(std::unique_ptr<BackgroundLoad> load);
    BackgroundLoad* background() { return background_.get(); }
    bool has_background() const { return background_ != nullptr; }
    // At most this many copies per lane and sample (1: every sample times one transfer, its latency).
    void set_max_repetitions(std::size_t n) { reps_limit_ = n; }
    const Stream& lane_stream(std::size_t lane) const { return *lanes_.at(lane).stream; }

    nlohmann::json context_ = nlohmann::json::object();

private:
    struct Lane {
        CudaLaneDef def;
        std::unique_ptr<Stream> stream;
        std::unique_ptr<Event> start, stop;
        std::unique_ptr<Stream> observer;  // on the reference GPU, for a lane on another GPU
        std::unique_ptr<Event> stop_seen;  // recorded by the observer after the lane's stop
        std::uint64_t seed = 0;
        std::size_t poisoned_bytes = 0;  // a destination the CPU fills: poisoned this far once
    };

    // gated: hold the streams behind the blocking kernel (event timing with the gate enabled).
    Sample timed(std::size_t bytes, std::size_t reps, bool gated = true);
    Sample timed_wall(std::size_t bytes, std::size_t reps);
    // Once per session, event timing with the gate: one copy per lane without
    // it (a kernel's first launch loads its module, lazily, on an idle device).
    void load_kernels(std::size_t bytes);
    void check_size(std::size_t bytes) const;
    std::size_t reps_cap() const;
    double target_interval() const;
    Sample timed_under_load(std::size_t bytes, std::size_t reps);

    BlockingGate gate_;  // first member: destroyed last, after the streams drained
    std::unique_ptr<BackgroundLoad> background_;
    std::vector<Lane> lanes_;
    PatternOps patterns_;
    TimingMode mode_;
    std::size_t max_bytes_;
    bool gate_enabled_ = true;
    bool kernels_loaded_ = false;  // one copy per lane ran without the gate (see warmup)
    bool lane_extras_ = false;
    std::function<void(std::size_t)> blocking_copy_;
    double last_window_s_ = 0;    // the last timed window, for the background's plan
    std::size_t reps_limit_ = 0;  // 0: kMaxRepetitions shared by the lanes
    std::size_t reset_bytes_ = 0;
    bool was_reset_ = false;
    std::uint64_t fills_ = 0;
    std::map<std::size_t, double> seconds_per_rep_;  // estimates from warmup and samples
};

}  // namespace hwcomm::cuda
