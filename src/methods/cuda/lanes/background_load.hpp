#pragma once
// Background lanes (role "load", the set U of the study's model): copies that
// keep routes busy for the whole of every sample of a lane group, on the copy
// engines, or as copy kernels of short tiled blocks (the SM slots they hold
// free up tile by tile, so stream priorities can act; executor.hpp).
// Each lane copies chunks of kLoadChunkBytes back to back on its own stream,
// held by the group's start gate and released with the measured lanes. It
// queues enough chunks to outlast the measured window (estimated from the
// last samples) and records an event every few chunks, so what it moved
// inside the window is known: the bytes of the chunks that finished inside
// the window over the time they took, on the lane's own clock from the common
// release. After the sample the rest of its queue drains, untimed.
#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "methods/characterizer.hpp"
#include "methods/cuda/common/blocking_gate.hpp"
#include "methods/cuda/common/cuda_handles.hpp"
#include "methods/cuda/common/host_memory.hpp"
#include "methods/cuda/common/peer_setup.hpp"
#include "methods/cuda/lanes/executor.hpp"
#include "methods/cuda/lanes/load_window.hpp"
#include "methods/under_load.hpp"
#include "platform/hwloc_topology.hpp"

namespace hwcomm::cuda {

class BackgroundLoad {
public:
    // priority: the streams' priority (0: default; see stream_priority_range).
    BackgroundLoad(const std::vector<LoadRoute>& routes, int priority = 0,
                   Executor executor = Executor::CopyEngine);
    ~BackgroundLoad();
    BackgroundLoad(const BackgroundLoad&) = delete;
    BackgroundLoad& operator=(const BackgroundLoad&) = delete;

    std::vector<LaneSpec> specs() const;
    std::size_t size() const { return lanes_.size(); }
    // Only the first `n` lanes run (the under-load method's load count).
    void set_active(std::size_t n) { active_ = std::min(n, lanes_.size()); }
    std::size_t active() const { return active_; }

    void hold(BlockingGate& gate);
    // Queues each active lane's chunks: start event, chunks, marks.
    void enqueue(double window_estimate_s);
    void drain_noexcept() noexcept;
    // After the measured lanes stopped, `window_s` after the common release:
    // waits for the queues, then adds one LaneSample per active lane (its
    // chunk as the unit: bytes_per_rep = chunk, seconds = per-chunk time x
    // `reps`) and extras "load_gbps" (every lane's in-window bytes over the
    // longest in-window time), "load_covered" (1 when every lane outlasted
    // the window), "load_lanes".
    void account(double window_s, std::size_t reps, Sample& sample);
    bool covered() const { return covered_; }
    // Plan more chunks next time (a lane stopped before the window closed).
    void lengthen() { cover_factor_ *= 2; }
    nlohmann::json context() const;

private:
    struct Lane;
    HwlocTopology topo_;  // names the host buffers' nodes (they live on the pool's own topology)
    std::vector<std::unique_ptr<PeerSetup>> peers_;
    std::vector<std::unique_ptr<Lane>> lanes_;
    std::size_t active_ = 0;
    int priority_ = 0;
    Executor executor_;
    double cover_factor_ = kLoadCoverFactor;
    bool covered_ = true;
};

}  // namespace hwcomm::cuda
