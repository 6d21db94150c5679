#pragma once
// Combines the event timings of the two streams of a duplex sample into one
// interval, from the earliest start to the latest end, and the skews between
// the streams. Pure arithmetic, tested without a GPU.
//
// Times are seconds on stream A's clock, with A's start event at 0. When both
// streams live on one GPU, B's start and stop are read directly. When they
// live on two GPUs, events cannot be compared across devices: an observer
// stream on A's GPU waits for B's stop event and records its own, so B's stop
// is seen on A's clock (late by the cross-GPU signalling delay, which makes the
// result conservative) and B's start is that stop minus B's own duration.
#include <optional>

namespace hwcomm::cuda {

struct DuplexEvents {
    double a_duration_s = 0;                 // A: stop - start (A's GPU)
    double b_duration_s = 0;                 // B: stop - start (B's GPU)
    std::optional<double> b_start_on_a_s;    // same GPU only
    double b_stop_on_a_s = 0;                // B's stop on A's clock (observed when GPUs differ)
};

struct DuplexTiming {
    double total_s = 0;       // latest end - earliest start
    double start_skew_s = 0;  // B's start - A's start (negative: B started first)
    double stop_skew_s = 0;   // B's stop - A's stop (negative: B finished first)
};

DuplexTiming combine_duplex(const DuplexEvents& ev);

}  // namespace hwcomm::cuda
