#pragma once
// The blocking kernel's host side (nvbench's technique): hold() launches a
// kernel that spins on a host-mapped flag, so everything queued behind it on
// that stream waits; release() sets the flag and all held streams start
// together. Event timing then covers the copies, not the cost of queueing
// them. A kernel that waited longer than the timeout (the queue filled and
// the host stalled) reports it through timed_out().
#include <cstdint>

#include "methods/cuda/common/cuda_handles.hpp"

namespace hwcomm::cuda {

class BlockingGate {
public:
    static constexpr std::uint64_t kTimeoutNs = 500'000'000;  // 0.5 s

    BlockingGate();
    ~BlockingGate();
    BlockingGate(const BlockingGate&) = delete;
    BlockingGate& operator=(const BlockingGate&) = delete;

    // Re-arms the flag when nothing is held yet, then blocks `stream`.
    void hold(const Stream& stream);
    void release() noexcept;
    bool timed_out() const noexcept;

private:
    volatile int* host_ = nullptr;    // [0] flag, [1] timed out
    int* device_view_ = nullptr;
    bool armed_ = false;
};

// Releases the gate when it leaves scope, whatever happened (an exception
// while queueing must not leave a stream blocked until the timeout).
class GateRelease {
public:
    explicit GateRelease(BlockingGate* gate) : gate_(gate) {}
    ~GateRelease() {
        if (gate_) gate_->release();
    }
    GateRelease(const GateRelease&) = delete;
    GateRelease& operator=(const GateRelease&) = delete;

private:
    BlockingGate* gate_;
};

}  // namespace hwcomm::cuda
