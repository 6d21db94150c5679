#pragma once
// What one bandwidth-vs-size curve says, computed once and shared by
// `summary`, `analyze`, `compare` and the HTML report: the large-transfer
// plateau, the best point (and whether caches explain it), how close the
// path comes to its theoretical bottleneck, n1/2 and a Hockney fit, the
// small-transfer time where it means something, and points that look wrong.
// Reads only results (core/results.hpp) and the graph stored in them.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyze/record_facts.hpp"
#include "catalog/method_row.hpp"
#include "core/graph.hpp"
#include "core/results.hpp"
#include "measure/link_text.hpp"  // format_number, for the analyze printers

namespace hwcomm::analyze {

// Knobs of the metrics; the defaults are the documented rule (docs/analysis.md).
struct CurveOptions {
    // The large-transfer plateau: the points at or above large_min_bytes (when
    // none are, of the last octave measured) that stay within a tolerance of
    // the largest size's bandwidth, walking down from the largest size; their
    // median. A curve still falling at 256 MiB (a CPU cache larger than 64
    // MiB) is judged by the sizes past the fall. The tolerance is
    // plateau_tolerance, or, where both points carry a 95% CI, twice the sum
    // of their relative half-widths within [tight_plateau_tolerance,
    // plateau_tolerance]: a tight curve's last percent of ramp (a device copy
    // at 64 MiB, 5% below its 512 MiB plateau) is no plateau, a noisy curve's
    // scatter still is. When that leaves the largest size alone while the
    // flat plateau_tolerance would hold more (a last point a few percent off
    // its tight neighbours), the flat rule decides: a headline is a median,
    // not one point.
    std::uint64_t large_min_bytes = 64 * kMiB;
    double plateau_tolerance = 0.10;
    double tight_plateau_tolerance = 0.02;
    // Suspect when neighbouring sizes differ by more than this factor in
    // bandwidth (a rise: times half the sizes' ratio where they are more than
    // an octave apart, as a few confirmation sizes are).
    double jump_factor = 10.0;
    // Suspect when the 1-byte time exceeds the 4-byte time by this factor.
    double one_byte_factor = 4.0;
    // Suspect when a point's bandwidth exceeds the path limit by more than this fraction.
    double over_limit_tolerance = 0.05;
    // A point that stopped before its noise target is "not converged" only when
    // its 95% CI half-width exceeds half of this: the smallest relative
    // difference the analysis decides with a point (the 5% of --threshold and
    // of the identical-link spread). A wider interval could not tell such a
    // difference from noise; a narrower one decides it whatever the target was.
    double decision_difference = 0.05;
    // Overrides the cache size used for the cache-resident flag (0 = derive it).
    std::uint64_t cache_bytes = 0;
};

// One usable point of a curve (status ok, at least one sample), sorted by size.
struct CurvePoint {
    std::uint64_t bytes = 0;
    double seconds = 0;         // median (imported: the aggregate the study plotted) time per transfer
    double gbps = 0;            // bytes / seconds / 1e9
    double ci_low_s = 0, ci_high_s = 0;  // NaN when absent (imported aggregates)
    bool converged = true;      // stop_reason "converged" (or no stop reason recorded)
    double ci_half_width = 0;   // relative half-width of the median's 95% CI (0 when unknown)
    bool has_ci = false;        // the point recorded its median's CI (ci_half_width may then be 0: equal samples)
    std::size_t n = 0;          // samples
};

struct LargeTransfer {
    double gbps = 0;                       // median of the window's bandwidths
    std::uint64_t from_bytes = 0, to_bytes = 0;
    std::size_t n_points = 0;
    bool last_octave = false;              // no point reached large_min_bytes
    // Even the largest size measured fits the relevant cache (a --quick run up
    // to 64 MiB on a host with a 300 MiB LLC): not a figure of the memory
    // behind it, and every printer marks it so.
    bool cache_resident = false;
};

struct BestPoint {
    double gbps = 0;
    std::uint64_t bytes = 0;
    bool cache_resident = false;           // working set fits the relevant cache and the point is below the window
    std::uint64_t cache_bytes = 0;         // the cache size compared with (0 = unknown)
    std::string cache;                     // "CPU last-level cache", "GPU L2", "" when none applies
};

// t(n) = a + n / b, least squares on the time of every point, weighted by 1/t
// so that small and large sizes count alike; rel_rms_error is the root mean
// square of (t_fit - t) / t.
struct HockneyFit {
    double latency_s = 0;                   // a
    double bandwidth_gbps = 0;              // b
    double rel_rms_error = 0;
    std::size_t n_points = 0;
};

// Time per transfer at the smallest size, launch overhead included.
struct SmallTransfer {
    double seconds = 0;
    std::uint64_t bytes = 0;
};

struct SuspectPoint {
    std::uint64_t bytes = 0;
    std::string kind;     // "jump" | "one-byte" | "over-limit" | "not-converged" | "failed"
    std::string reason;   // one line with the numbers
};

struct CurveMetrics {
    std::optional<LargeTransfer> large;
    std::optional<BestPoint> best;
    std::optional<LinkLimit> limit;
    std::optional<double> fraction_of_limit;        // large.gbps / limit.gbps
    std::optional<double> half_bandwidth_bytes;     // n1/2: size reaching half the large-transfer bandwidth (log-interpolated)
    std::optional<HockneyFit> fit;
    std::optional<SmallTransfer> small;             // absent for cpu-* methods (meaningless at 1 B)
    std::vector<SuspectPoint> suspects;
    std::size_t n_points = 0;
};

// False when the record says its points are not a path's bandwidth
// (context.headline.metric, e.g. priority's "completion time": a wait behind
// a load is part of every point): no link share, no large-transfer rate.
bool points_are_path_bandwidth(const Record& record);
// The record's own statement of what its points are (context.headline.why), "" when none.
std::string headline_why(const Record& record);

// The usable points of a record, sorted by size.
std::vector<CurvePoint> curve_points(const Record& record);

// Everything at once. `row` is the record's method row (null: a method no
// catalog knows, read as one direction with one buffer); `topology` may be
// null (no limit, default cache sizes).
CurveMetrics curve_metrics(const Record& record, const MethodRow* row, const Graph* topology,
                           const CurveOptions& options = {});

// The pure computation on points, for tests and for curves built elsewhere.
CurveMetrics curve_metrics(const std::vector<CurvePoint>& points, const std::optional<LinkLimit>& limit,
                           const std::optional<CacheInfo>& cache, bool small_meaningful,
                           const CurveOptions& options = {});

// The topology of a results file as a graph; nullopt when it has none or it
// does not parse.
std::optional<Graph> topology_of(const ResultsFile& file);

}  // namespace hwcomm::analyze
