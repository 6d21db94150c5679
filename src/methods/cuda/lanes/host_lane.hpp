#pragma once
// A CPU lane inside a lane group (executor cpu of a transfer set beside GPU
// lanes): a team of CPU threads bound to one NUMA node copies between two
// host buffers, and a stream of the reference GPU stands for it, so its
// start and stop are on the same clock as every other lane's:
//   start event -> host function (arms the team: the copies queued so far)
//   -> wait kernel (until the team's done counter reaches this copy) -> stop event
// The lane's time therefore includes the host function's start-up and the
// kernel's polling of the counter (a few microseconds each way, never less
// than the copy); the team's own span on the host clock is kept beside it.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "methods/cpu/host_copy_team.hpp"
#include "methods/cuda/lanes/lane_group.hpp"

namespace hwcomm::cuda {

class HostLane {
public:
    // Longer than any one sample of a CPU copy: a lane whose threads never report is an error.
    static constexpr std::uint64_t kTimeoutNs = 10'000'000'000ull;

    // `src` and `dst` are host pointers the team copies between; `device` is
    // the GPU whose stream stands for the lane; `topo` outlives the lane.
    HostLane(const HwlocTopology& topo, std::vector<CoreSlot> slots, int device, std::byte* dst, const std::byte* src);
    ~HostLane();
    HostLane(const HostLane&) = delete;
    HostLane& operator=(const HostLane&) = delete;

    // What the lane group queues for one copy (host function, then the wait kernel).
    EnqueueCopy enqueue();
    // True when a wait kernel gave up since the last call (and clears it).
    bool take_timed_out() noexcept;
    // The team's span of its last job on the host clock, and its repetitions.
    HostCopyTeam::Span last_span() { return team_->wait(); }
    std::size_t last_reps() const { return last_reps_.load(); }
    const HostCopyTeam& team() const { return *team_; }

private:
    static void on_stream(void* self) noexcept;  // the host function
    void finished(std::size_t reps) noexcept;    // the team's last thread, per job

    std::unique_ptr<HostCopyTeam> team_;
    int device_;
    std::byte* dst_;
    const std::byte* src_;
    std::size_t bytes_ = 0;
    std::atomic<std::uint64_t> queued_{0};  // copies queued (enqueue calls)
    std::atomic<std::uint64_t> armed_{0};   // copies handed to the team
    std::atomic<std::uint64_t> open_{1};    // the team's release flag: always open (the stream orders it)
    std::atomic<std::size_t> last_reps_{0};
    std::uint64_t completed_ = 0;           // written by the team's last thread only
    volatile unsigned long long* counter_ = nullptr;  // host-mapped: completed copies
    unsigned long long* counter_device_ = nullptr;
    volatile int* timed_out_ = nullptr;
    int* timed_out_device_ = nullptr;
};

}  // namespace hwcomm::cuda
