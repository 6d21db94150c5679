#pragma once
// The measurement of the um-* methods: ONE transfer per sample, because the
// pages move with the first one (a second prefetch or touch in the same batch
// would move nothing). Per sample: reset (untimed: a fresh pattern, pages put
// back where they start) -> one transfer, timed by events on a stream held by
// the blocking kernel (as the lane group does), by the host clock in wall
// mode, or by the host clock when the CPU itself does the transfer -> verify.
//
// Each warm-up also records where the pages were, as the CPU's page tables
// see them, after the reset and after the transfer (context "residency").
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "methods/characterizer.hpp"
#include "methods/cuda/common/blocking_gate.hpp"
#include "methods/cuda/common/cuda_handles.hpp"
#include "methods/cuda/lanes/lane_group.hpp"

namespace hwcomm::cuda {

class SingleShotSession : public TransferSession {
public:
    void warmup(std::size_t bytes, const std::string& variant) override;
    void reset(std::size_t bytes, const std::string& variant) override;
    Sample measure(std::size_t bytes, const std::string& variant) override;
    std::string verify(std::size_t bytes, const std::string& variant) override;
    nlohmann::json context() const override { return context_; }
    std::size_t max_bytes() const override { return max_bytes_; }

protected:
    // `device`: the GPU whose stream queues the transfer and whose clock times it.
    SingleShotSession(int device, TimingMode mode, std::size_t max_bytes);

    // Untimed: the pattern of `seed` in data[0, bytes), pages where they start; returns when done.
    virtual void put_back(std::size_t bytes, std::uint64_t seed) = 0;
    // Queues the one transfer on `stream` (its device is current).
    virtual void enqueue_transfer(std::size_t bytes, cudaStream_t stream) = 0;
    // "" when the transfer delivered the pattern of `seed`, else what is wrong. Moves nothing.
    virtual std::string check_after(std::size_t bytes, std::uint64_t seed) = 0;
    // The range whose host residency the warm-up records.
    virtual const void* pages() const = 0;

    // The CPU does the transfer (it touches the pages): host-clock timed by
    // `transfer` itself, which returns the seconds (set-up such as thread
    // binding stays outside them).
    void set_host_transfer(std::function<double(std::size_t)> transfer, const std::string& why);
    const Stream& stream() const { return stream_; }
    std::uint64_t seed() const { return seed_; }  // of the last reset

    nlohmann::json context_ = nlohmann::json::object();

private:
    // gated: behind the blocking kernel (event timing, gate enabled).
    double timed(std::size_t bytes, bool gated = true);
    void load_kernels(std::size_t bytes, const std::string& variant);

    BlockingGate gate_;  // first member: destroyed last, after the stream drained
    int device_;
    Stream stream_;
    Event start_, stop_;
    TimingMode mode_;
    std::size_t max_bytes_;
    bool gate_enabled_ = true;
    bool kernels_loaded_ = false;  // one transfer ran without the gate (warmup)
    std::function<double(std::size_t)> host_transfer_;
    std::uint64_t seed_ = 0;
    std::uint64_t fills_ = 0;
    std::size_t reset_bytes_ = 0;
    bool fresh_ = false;        // reset since the last transfer
    bool transferred_ = false;  // a transfer since the last reset
};

}  // namespace hwcomm::cuda
