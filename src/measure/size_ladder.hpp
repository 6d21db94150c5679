#pragma once
// The adaptive size ladder of a full sweep (issue 21, item 5): octaves from the
// method's smallest size, the intermediate sizes only where the curve bends
// (between latency-bound and plateau, or at a cache edge), and no larger sizes
// once the plateau holds: `plateau_points` consecutive octave sizes whose
// bandwidths lie within `plateau_tolerance` of each other, the last of them at
// least `plateau_min_bytes`. A noisy curve is judged by its points' 95% CIs:
// a step no larger than the two points' uncertainty is no bend, and sizes
// whose CIs share a value (and lie within `noisy_plateau_cap`) are a plateau,
// so noise neither buys intermediate sizes nor keeps the ladder climbing.
// Noise the CIs do not show (a disk or a pageable path that drifts from one
// size to the next, each point tight) shows as scatter between neighbouring
// octaves: from `scatter_points` octave sizes >= `scatter_from_bytes` on, a
// step there must also exceed twice the spread of a difference of two such
// points (sigma from the median |second difference| of log bandwidth, robust
// to one real edge among them) to be a bend.
// Pure: it only sees the sizes and bandwidths fed to it, so tests drive it
// with planted curves.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace hwcomm {

struct LadderOptions {
    int octave_step = 1;                  // the first pass: every octave (2: every 2nd octave)
    double plateau_tolerance = 0.02;      // max / min - 1 of the plateau's bandwidths
    std::size_t plateau_points = 3;
    // 256 MiB, not the 64 MiB where analyze's window starts: replayed on the
    // committed default runs of nvidia-h200-x2 and -x4, stopping at 64 MiB grew
    // model check's leave-one-size-out median error by 0.64 and 0.46 points,
    // at 256 MiB by 0.40 and 0.25 (docs/benchmarks.md).
    std::uint64_t plateau_min_bytes = std::uint64_t{256} << 20;
    // The log-log slope of bandwidth against size between two octave sizes: 1
    // where time is latency-bound (bandwidth doubles with the size), 0 on the
    // plateau. In between, or falling (a cache edge), the curve bends there and
    // the intermediate candidates are measured too.
    double bend_min_slope = 0.15;
    double bend_max_slope = 0.85;
    // A plateau of overlapping CIs may span at most this (max / min - 1):
    // wide CIs alone never hide a rise larger than it.
    double noisy_plateau_cap = 0.10;
    // Between-point scatter: only over sizes past every GPU L2 (so a cache edge
    // rarely sits among them, and never alone decides the median), and from 6
    // octave sizes there (4 second differences) on.
    std::uint64_t scatter_from_bytes = std::uint64_t{16} << 20;
    std::size_t scatter_points = 6;
    // A costly point ends the ladder sooner: from plateau_min_bytes on, two
    // octave sizes that agree as a plateau's would (within plateau_tolerance,
    // or within their CIs and noisy_plateau_cap) are a plateau when the
    // larger one took at least this long (its samples and their untimed
    // work): the next octave would take about twice that to confirm what two
    // sizes past every cache already agree on. On one H100 the 1 GiB points
    // of pageable, single-thread and unified-memory paths took 0.5-1.0 s each
    // (docs/benchmarks.md, fourteenth session). 0: off.
    double costly_point_s = 0.3;
};

nlohmann::json ladder_options_to_json(const LadderOptions& options);

class SizeLadder {
public:
    // `octaves`: the sizes of the first pass (the run's sizes under the
    // method's policy; with octave_step 2 every second of them, and the last);
    // `intermediates`: sizes between them, measured only where the curve bends.
    SizeLadder(std::vector<std::uint64_t> octaves, std::vector<std::uint64_t> intermediates, LadderOptions options);

    // The next size to measure; nullopt once the ladder is done.
    std::optional<std::uint64_t> next() const;
    // The result of the size next() gave: its bandwidth, or nullopt when the
    // point failed (it then neither bends nor holds a plateau), and the
    // relative half-width of its 95% CI (0: exact, as planted curves are),
    // and the seconds the point took (0: unknown, never costly).
    void add(std::uint64_t bytes, std::optional<double> bandwidth_gbps, double relative_ci = 0,
             double point_seconds = 0);

    // Takes the sizes above `max_bytes` out of the ladder (the session could
    // not be prepared for them); returns the first-pass sizes taken out.
    std::vector<std::uint64_t> drop_above(std::uint64_t max_bytes);

    // The first-pass sizes.
    const std::vector<std::uint64_t>& octave_sizes() const { return octaves_; }
    // What the ladder did, for the record's context: sizes measured, refined
    // intervals, why it stopped.
    nlohmann::json summary() const;
    bool plateau_reached() const { return plateau_; }

private:
    struct OctavePoint {
        std::uint64_t bytes;
        double gbps;
        double relative_ci;
        double seconds = 0;
    };
    // How the last n octave points agree: 0 not at all, 1 within
    // plateau_tolerance, 2 only within their CIs (and noisy_plateau_cap).
    int agreement(std::size_t n) const;
    // Whether the curve bends between two measured sizes (a rising or falling
    // step beyond both CIs and, from scatter_from_bytes on, the scatter).
    bool bends(const OctavePoint& lower, const OctavePoint& upper);
    void refine_if_bent(std::uint64_t lower, std::uint64_t upper);
    // The smallest log step that is a bend between `lower` and a new octave
    // point of `gbps`, by the scatter between octave points (0: too few).
    double scatter_floor(std::uint64_t lower, double gbps) const;
    void check_plateau();

    std::vector<std::uint64_t> octaves_, intermediates_;
    std::vector<std::uint64_t> skipped_;  // octaves the first pass steps over (octave_step 2)
    LadderOptions options_;
    std::size_t next_octave_ = 0;
    std::vector<std::uint64_t> refinements_;  // queued intermediate sizes, measured first
    std::map<std::uint64_t, std::pair<std::uint64_t, std::uint64_t>> halves_;  // skipped octave -> its neighbours
    std::map<std::uint64_t, OctavePoint> values_;  // every ok size measured
    std::vector<OctavePoint> octave_points_;  // ok octave sizes in order
    std::size_t run_start_ = 0;  // octave_points_ from here on follow each other without a failed size
    std::vector<std::uint64_t> measured_, refined_from_, within_scatter_from_;
    bool plateau_ = false;
    bool noisy_plateau_ = false;  // the plateau held by overlapping CIs, not within plateau_tolerance
    bool costly_plateau_ = false;  // two sizes, the larger one costly (LadderOptions::costly_point_s)
};

// The first-pass sizes of `octaves` under options.octave_step.
std::vector<std::uint64_t> first_pass(const std::vector<std::uint64_t>& octaves, int octave_step);

// The first-pass sizes a full sweep is expected to measure before its plateau
// holds at `stop_bytes` (for estimates): up to the first one >= stop_bytes
// (and >= plateau_min_bytes).
std::vector<std::uint64_t> expected_ladder_sizes(const std::vector<std::uint64_t>& octaves,
                                                 const LadderOptions& options, std::uint64_t stop_bytes);

}  // namespace hwcomm
