#pragma once
// Puts the event timings of N lanes started together on one clock: the
// reference lane's GPU, with the reference lane's start event at 0. Pure
// arithmetic, tested without a GPU.
//
// A lane on the reference GPU has its start and stop read directly. Events of
// two GPUs cannot be compared, so for a lane on another GPU an observer stream
// on the reference GPU waits for the lane's stop event and records its own:
// the stop is seen on the reference clock (late by the cross-GPU signalling
// delay, which makes the window conservative) and the start is that stop minus
// the lane's own duration.
#include <optional>
#include <vector>

namespace hwcomm::cuda {

struct LaneEvents {
    double duration_s = 0;                 // stop - start, on the lane's own GPU
    std::optional<double> start_on_ref_s;  // lanes on the reference GPU only
    double stop_on_ref_s = 0;              // direct, or as observed on the reference GPU
};

struct LaneTimes {
    double start_s = 0;  // on the reference clock
    double stop_s = 0;
};

struct LaneWindow {
    double window_s = 0;               // latest stop - earliest start
    std::vector<LaneTimes> lanes;      // per lane, on the reference clock
    double max_start_skew_s = 0;       // latest start - earliest start
    double max_stop_skew_s = 0;        // latest stop - earliest stop
};

LaneWindow combine_lanes(const std::vector<LaneEvents>& events);

}  // namespace hwcomm::cuda
