#pragma once
// The session every one-way CUDA method shares: a stream on one GPU, two
// timing events, the blocking gate, pattern fill/check of the two ends. A
// method derives from it, owns its buffers and peer-access guards, and says
// how to queue one copy (event mode) and how to do one synchronous copy
// (wall mode).
//
// event: [gate holds the stream] start, N x copy, stop [gate released];
//        seconds = stop - start on the GPU's clock, N chosen so the interval
//        is >= 50 us (sizing.hpp).
// wall:  host steady clock around one synchronous copy (the original study).
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "methods/characterizer.hpp"
#include "methods/cuda/blocking_gate.hpp"
#include "methods/cuda/cuda_handles.hpp"
#include "methods/cuda/pattern_ops.hpp"

namespace hwcomm::cuda {

enum class TimingMode { Event, Wall };
// "event" | "wall"; throws UsageError otherwise.
TimingMode timing_mode_from_string(const std::string& text);
const char* to_string(TimingMode mode);

class OneWaySession : public TransferSession {
public:
    void warmup(std::size_t bytes, const std::string& variant) override;
    Sample measure(std::size_t bytes, const std::string& variant) override;
    std::string verify(std::size_t bytes, const std::string& variant) override;
    nlohmann::json context() const override { return context_; }
    std::size_t max_bytes() const override { return max_bytes_; }

protected:
    // `stream_device`: the GPU whose stream queues the copies and whose clock times them.
    OneWaySession(int stream_device, TimingMode mode, std::size_t max_bytes);

    // Called by the derived constructor once its buffers exist. `gate_note`
    // explains a gate_ok == false (pageable copies are synchronous for the host).
    void set_endpoints(const BufferRef& src, const BufferRef& dst, bool gate_ok, const std::string& gate_note);
    // For copies the CPU does (host to host): always host-clock timing.
    void force_wall(const std::string& why);

    virtual void enqueue_copy(std::size_t bytes, cudaStream_t stream) = 0;
    virtual void copy_blocking(std::size_t bytes) = 0;

    const Stream& stream() const { return stream_; }
    nlohmann::json context_ = nlohmann::json::object();

private:
    void prepare_size(std::size_t bytes);
    double timed_copies(std::size_t bytes, std::size_t reps);

    BlockingGate gate_;  // first member: destroyed last, after the stream drained
    Stream stream_;
    Event start_;
    Event stop_;
    PatternOps patterns_;
    TimingMode mode_;
    std::size_t max_bytes_;
    BufferRef src_, dst_;
    bool gate_enabled_ = true;
    std::size_t prepared_bytes_ = 0;
    bool prepared_ = false;
    std::uint64_t seed_ = 0;
    std::uint64_t fills_ = 0;
    std::map<std::size_t, double> seconds_per_rep_;  // estimates from warmup and samples
};

}  // namespace hwcomm::cuda
