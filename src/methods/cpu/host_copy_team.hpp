#pragma once
// The CPU executor of a transfer set: threads bound one per slot (a core, or
// a PU with --smt) of one NUMA node that copy one buffer into another
// together, each its share of 64-byte lines. Unlike the OpenMP teams of the
// CPU methods, several teams live at once and start on one release flag:
// once armed, every thread spins on the flag, so all teams of a set start
// within the time one store takes to reach every core. Between jobs the
// threads sleep. Each team reports its span on the steady clock: from its
// first thread's start to its last thread's stop.
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "platform/hwloc_topology.hpp"
#include "platform/thread_binding.hpp"

namespace hwcomm {

class HostCopyTeam {
public:
    struct Span {
        double start_s = 0, stop_s = 0;  // steady_seconds()
        double seconds() const { return stop_s - start_s; }
    };

    // One thread per slot, bound to it for the team's life (`topo` must outlive the team).
    HostCopyTeam(const HwlocTopology& topo, std::vector<CoreSlot> slots);
    ~HostCopyTeam();
    HostCopyTeam(const HostCopyTeam&) = delete;
    HostCopyTeam& operator=(const HostCopyTeam&) = delete;

    unsigned threads() const { return static_cast<unsigned>(threads_.size()); }
    // Arms one job: `reps` copies of dst[0, bytes) = src[0, bytes); the
    // threads start once `release` holds `ticket` or more. A job must be
    // waited for before the next is armed.
    void arm(std::byte* dst, const std::byte* src, std::size_t bytes, std::size_t reps,
             const std::atomic<std::uint64_t>* release, std::uint64_t ticket);
    // The same without throwing (from a CUDA host function): false while a job runs.
    bool try_arm(std::byte* dst, const std::byte* src, std::size_t bytes, std::size_t reps,
                 const std::atomic<std::uint64_t>* release, std::uint64_t ticket) noexcept;
    // Blocks until the armed job is done.
    Span wait();
    // Called once per job, with its repetitions, by the thread that finishes it
    // last, after wait() can return (must not throw; set before the first arm).
    void set_on_done(std::function<void(std::size_t)> on_done) { on_done_ = std::move(on_done); }
    // Binding failures of the threads ("" when every thread is bound).
    std::string binding_note() const;
    const std::vector<CoreSlot>& slots() const { return slots_; }

private:
    struct Job {
        std::byte* dst = nullptr;
        const std::byte* src = nullptr;
        std::size_t bytes = 0, reps = 0;
        const std::atomic<std::uint64_t>* release = nullptr;
        std::uint64_t ticket = 0;
        std::uint64_t id = 0;
    };
    void work(unsigned rank);

    const HwlocTopology& topo_;
    std::vector<CoreSlot> slots_;
    std::mutex mutex_;
    std::condition_variable armed_, finished_;
    Job job_;
    std::uint64_t done_id_ = 0;
    std::atomic<unsigned> running_{0};
    std::atomic<bool> stop_{false};
    std::vector<double> starts_, stops_;
    std::vector<std::string> notes_;
    std::function<void(std::size_t)> on_done_;
    std::vector<std::thread> threads_;  // last: started once everything above exists
};

// Threads for the CPU lanes of one set: each its own count, or (0) an even
// share of what the other lanes of its node leave; consecutive slots per
// lane, wrapping around the node when oversubscribed (said in `notes`).
// Throws MeasurementError for a node without a slot.
struct TeamRequest {
    int numa = -1;
    unsigned threads = 0;
};
std::vector<std::vector<CoreSlot>> assign_team_slots(const HwlocTopology& topo, const std::vector<TeamRequest>& lanes,
                                                     bool smt, std::vector<std::string>& notes);

}  // namespace hwcomm
