#include "run/remeasure_rule.hpp"

#include <algorithm>
#include <cstdint>

#include "measure/statistics.hpp"

namespace hwcomm {

namespace {

// Wide: a point from 64 MiB (where the plateau rule looks) whose samples
// spread far wider than the record's other points past the caches (pinned
// copies at +-32% among neighbours at +-0.5% on an H100 host).
constexpr double kWidePointCi = 0.10;   // the point's relative 95% CI half-width, above which...
constexpr double kQuietCurveCi = 0.02;  // ...while the median of the other points' is at most this
constexpr std::uint64_t kCandidateMinBytes = std::uint64_t{64} << 20;
constexpr std::uint64_t kQuietPointMinBytes = std::uint64_t{16} << 20;
// Dip: a point from 64 MiB whose median lies below that of the next smaller
// point from 64 MiB by more than the ladder's plateau tolerance
// (LadderOptions::plateau_tolerance) and more than their two CIs. Past the
// caches a larger copy is never slower on the link; a pinned copy's 128 MiB
// read 53.0 GB/s +-0.3% between 54.9 and 55.1 on an H100 host, and the ladder
// went on to 1 GiB (pinning 1 GiB again: 0.5 s, and the points: 0.4 s, of
// three records).
constexpr double kDipTolerance = 0.02;

constexpr const char* kWideRule =
    "a ladder point from 64 MiB with a CI > 10% while the median CI of the record's other points from 16 MiB is "
    "<= 2%: measured once more (once per record), the second kept";
constexpr const char* kDipRule =
    "a ladder point from 64 MiB more than 2% (and more than both CIs) below the next smaller point from 64 MiB while "
    "the median CI of the record's other points from 16 MiB is <= 2%: measured once more (once per record), the "
    "second kept";

bool candidate(const Point& p) { return p.status == "ok" && p.axes.empty() && p.bytes >= kCandidateMinBytes; }

bool quiet_curve_before_last(const std::vector<Point>& points) {
    std::vector<double> others;
    for (std::size_t i = 0; i + 1 < points.size(); ++i)
        if (points[i].status == "ok" && points[i].axes.empty() && points[i].bytes >= kQuietPointMinBytes)
            others.push_back(points[i].stats.relative_ci_half_width());
    return others.size() >= 2 && median_value(others) <= kQuietCurveCi;
}

bool dips(const std::vector<Point>& points) {
    const Point& last = points.back();
    if (!(last.bandwidth_gbps > 0)) return false;
    const Point* below = nullptr;  // the largest point under it, from 64 MiB
    for (std::size_t i = 0; i + 1 < points.size(); ++i) {
        const Point& p = points[i];
        if (candidate(p) && p.bytes < last.bytes && (!below || p.bytes > below->bytes)) below = &p;
    }
    if (!below || !(below->bandwidth_gbps > 0)) return false;
    const double margin =
        std::max(kDipTolerance, last.stats.relative_ci_half_width() + below->stats.relative_ci_half_width());
    return last.bandwidth_gbps < below->bandwidth_gbps * (1 - margin);
}

}  // namespace

std::optional<std::string> remeasure_rule(const std::vector<Point>& points) {
    if (points.empty() || !candidate(points.back())) return std::nullopt;
    const bool wide = points.back().stats.relative_ci_half_width() > kWidePointCi;
    if (!wide && !dips(points)) return std::nullopt;
    if (!quiet_curve_before_last(points)) return std::nullopt;
    return wide ? kWideRule : kDipRule;
}

}  // namespace hwcomm
