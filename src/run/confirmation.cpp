#include "run/confirmation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "measure/byte_size.hpp"

namespace hwcomm {

namespace {

// Per measured size (ascending), the best ok bandwidth over the method's other axes.
std::vector<std::pair<std::uint64_t, double>> ok_sizes(const Record& r) {
    std::map<std::uint64_t, double> best;
    for (const Point& p : r.points)
        if (p.status == "ok" && p.bandwidth_gbps > 0) best[p.bytes] = std::max(best[p.bytes], p.bandwidth_gbps);
    return {best.begin(), best.end()};
}

const Point* point_at(const Record& r, const Point& like) {
    for (const Point& p : r.points)
        if (p.bytes == like.bytes && p.axes == like.axes) return &p;
    return nullptr;
}

std::string gbps(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.4g GB/s", v);
    return b;
}

}  // namespace

std::vector<std::uint64_t> confirmation_sizes(const Record& representative, std::size_t count) {
    const auto ok = ok_sizes(representative);
    if (ok.empty()) return {};
    // The plateau: the first size of the window analyze judges (>= 64 MiB), where
    // the representative has one; else its largest. Larger sizes cost more and
    // the ladder measured them only when the curve still rose.
    std::size_t top = ok.size() - 1;
    for (std::size_t i = 0; i < ok.size(); ++i)
        if (ok[i].first >= kConfirmationPlateauBytes) {
            top = i;
            break;
        }
    const std::uint64_t plateau = ok[top].first;
    if (count <= 1) return {plateau};
    if (top < 2) {
        std::vector<std::uint64_t> all;
        for (std::size_t i = 0; i <= top; ++i) all.push_back(ok[i].first);
        return all;
    }
    // On the ramp: the size whose bandwidth is nearest half the plateau's (in ratio).
    const double half = ok[top].second / 2;
    std::size_t ramp = 1;
    for (std::size_t i = 1; i < top; ++i)
        if (std::fabs(std::log(ok[i].second / half)) < std::fabs(std::log(ok[ramp].second / half))) ramp = i;
    return {ok.front().first, ok[ramp].first, plateau};
}

ConfirmationVerdict judge_confirmation(const Record& member, const Record& representative, double tolerance) {
    ConfirmationVerdict v;
    for (const Point& p : member.points) {
        const Point* rep = point_at(representative, p);
        if (p.status != "ok" || !(p.bandwidth_gbps > 0)) {
            if (!v.promote) v.reason = format_size(p.bytes) + " failed: " + p.error;
            v.promote = true;
            continue;
        }
        if (!rep || rep->status != "ok" || !(rep->bandwidth_gbps > 0)) continue;  // nothing to compare with
        const double r = rep->bandwidth_gbps;
        double lo = r * (1 - tolerance), hi = r * (1 + tolerance);
        // The representative's CI of the median time, as bandwidth, where it is wider.
        if (rep->stats.ci95_high > 0 && rep->bytes_per_rep > 0) lo = std::min(lo, rep->bytes_per_rep / rep->stats.ci95_high / 1e9);
        if (rep->stats.ci95_low > 0 && rep->bytes_per_rep > 0) hi = std::max(hi, rep->bytes_per_rep / rep->stats.ci95_low / 1e9);
        // The timer's resolution either side of the representative's time per transfer.
        const double bytes = rep->bytes_per_rep > 0 ? rep->bytes_per_rep : static_cast<double>(rep->bytes);
        const double t = bytes / (r * 1e9);
        lo = std::min(lo, bytes / ((t * (1 + tolerance) + kTimerResolutionS) * 1e9));
        const double fastest_t = t * (1 - tolerance) - kTimerResolutionS;
        const bool unbounded = !(fastest_t > 0);  // faster than the clock can tell apart: never outside above
        if (!unbounded) hi = std::max(hi, bytes / (fastest_t * 1e9));
        const bool outside = p.bandwidth_gbps < lo || (!unbounded && p.bandwidth_gbps > hi);
        v.compared.push_back({{"bytes", p.bytes},
                              {"axes", p.axes},
                              {"bandwidth_gbps", p.bandwidth_gbps},
                              {"representative_gbps", r},
                              {"band_gbps", {lo, unbounded ? nlohmann::json(nullptr) : nlohmann::json(hi)}},
                              {"outside", outside}});
        if (outside && !v.promote) {
            const double off = (p.bandwidth_gbps / r - 1) * 100;
            char pct[32];
            std::snprintf(pct, sizeof pct, "%+.1f%%", off);
            v.reason = "at " + format_size(p.bytes) + " " + gbps(p.bandwidth_gbps) + ", " + pct + " from " +
                       representative.src + "->" + representative.dst + " (" + gbps(r) + "; band " + gbps(lo) +
                       " to " + (unbounded ? std::string("any higher") : gbps(hi)) + ")";
        }
        v.promote = v.promote || outside;
    }
    return v;
}

}  // namespace hwcomm
