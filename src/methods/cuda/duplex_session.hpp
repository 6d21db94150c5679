#pragma once
// Both directions of a path at once: lane A (forward) and lane B (reverse),
// one stream each, on their own GPUs, held by one blocking gate and released
// together. Sample::seconds runs from the earliest start to the latest end
// (duplex_math.hpp); bytes_per_rep counts both directions. Extras, per
// sample: fwd_s and rev_s (seconds per copy of each lane), fwd_gbps and
// rev_gbps, start_skew_s and stop_skew_s (B minus A, whole batch).
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "methods/characterizer.hpp"
#include "methods/cuda/blocking_gate.hpp"
#include "methods/cuda/cuda_handles.hpp"
#include "methods/cuda/one_way_session.hpp"
#include "methods/cuda/pattern_ops.hpp"

namespace hwcomm::cuda {

class DuplexSession : public TransferSession {
public:
    void warmup(std::size_t bytes, const std::string& variant) override;
    Sample measure(std::size_t bytes, const std::string& variant) override;
    std::string verify(std::size_t bytes, const std::string& variant) override;
    nlohmann::json context() const override { return context_; }
    std::size_t max_bytes() const override { return max_bytes_; }

protected:
    DuplexSession(int device_a, int device_b, TimingMode mode, std::size_t max_bytes);
    void set_lanes(const BufferRef& a_src, const BufferRef& a_dst, const BufferRef& b_src, const BufferRef& b_dst);
    virtual void enqueue_a(std::size_t bytes, cudaStream_t stream) = 0;
    virtual void enqueue_b(std::size_t bytes, cudaStream_t stream) = 0;

    nlohmann::json context_ = nlohmann::json::object();

private:
    void prepare_size(std::size_t bytes);
    Sample timed(std::size_t bytes, std::size_t reps);

    BlockingGate gate_;  // first member: destroyed last
    Stream stream_a_;
    Stream stream_b_;
    std::optional<Stream> observer_;  // on A's GPU, sees B's stop when B is another GPU
    Event a_start_, a_stop_, b_start_, b_stop_;
    std::optional<Event> b_stop_seen_;
    PatternOps patterns_;
    TimingMode mode_;
    std::size_t max_bytes_;
    BufferRef a_src_, a_dst_, b_src_, b_dst_;
    bool gate_enabled_ = true;
    bool prepared_ = false;
    std::size_t prepared_bytes_ = 0;
    std::uint64_t seed_a_ = 0, seed_b_ = 0, fills_ = 0;
    std::map<std::size_t, double> seconds_per_rep_;
};

}  // namespace hwcomm::cuda
