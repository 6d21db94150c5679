#include "run/confirmation.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "measure/byte_size.hpp"
#include "measure/link_text.hpp"
#include "measure/statistics.hpp"

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

std::string gbps(double v) { return format_number(v, "%.4g") + " GB/s"; }

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

namespace {

struct Band {
    double lo = 0, hi = 0;
    bool unbounded = false;  // faster than the clock can tell apart: never outside above
};

// +-tolerance around `centre` (GB/s) for a transfer of `bytes`, and the
// timer's resolution either side of the centre's time per transfer.
Band band_around(double centre, double bytes, double tolerance) {
    Band b{centre * (1 - tolerance), centre * (1 + tolerance), false};
    const double t = bytes / (centre * 1e9);
    b.lo = std::min(b.lo, bytes / ((t * (1 + tolerance) + kTimerResolutionS) * 1e9));
    const double fastest_t = t * (1 - tolerance) - kTimerResolutionS;
    b.unbounded = !(fastest_t > 0);
    if (!b.unbounded) b.hi = std::max(b.hi, bytes / (fastest_t * 1e9));
    return b;
}

bool outside(const Band& b, double gbps) { return gbps < b.lo || (!b.unbounded && gbps > b.hi); }

// One member's points against the representative, or against the class
// (`links`: every confirmation of the class, the member among them) at each
// size where kClassSpreadMinLinks links, the representative counted, have an ok point.
ConfirmationVerdict judge_points(const Record& member, const Record& representative,
                                 const std::vector<const Record*>& links, double tolerance) {
    ConfirmationVerdict v;
    const std::string rep_name = representative.src + "->" + representative.dst;
    for (const Point& p : member.points) {
        const Point* rep = point_at(representative, p);
        if (p.status != "ok" || !(p.bandwidth_gbps > 0)) {
            if (!v.promote) v.reason = format_size(p.bytes) + " failed: " + p.error;
            v.promote = v.failed = true;
            continue;
        }
        if (!rep || rep->status != "ok" || !(rep->bandwidth_gbps > 0)) continue;  // nothing to compare with
        const double r = rep->bandwidth_gbps;
        const double bytes = rep->bytes_per_rep > 0 ? rep->bytes_per_rep : static_cast<double>(rep->bytes);
        std::vector<double> logs{std::log(r)};
        for (const Record* link : links)
            if (const Point* q = point_at(*link, p); q && q->status == "ok" && q->bandwidth_gbps > 0)
                logs.push_back(std::log(q->bandwidth_gbps));
        nlohmann::json entry = {{"bytes", p.bytes}, {"axes", p.axes}, {"bandwidth_gbps", p.bandwidth_gbps},
                                {"representative_gbps", r}};
        double centre = r;
        Band band;
        const bool by_class = logs.size() >= kClassSpreadMinLinks;
        if (by_class) {
            const double scatter = robust_sd(logs);  // of log bandwidth
            centre = std::exp(median_value(logs));
            band = band_around(centre, bytes, tolerance);
            band.lo = std::min(band.lo, centre * std::exp(-kModifiedZOutlier * scatter));
            band.hi = std::max(band.hi, centre * std::exp(kModifiedZOutlier * scatter));
            entry["class"] = {{"links", logs.size()}, {"median_gbps", centre}, {"scatter", scatter},
                              {"representative_outside", outside(band, r)}};
        } else {
            band = band_around(r, bytes, tolerance);
            // The representative's CI of the median time, as bandwidth, where it is wider.
            if (rep->stats.ci95_high > 0 && rep->bytes_per_rep > 0)
                band.lo = std::min(band.lo, rep->bytes_per_rep / rep->stats.ci95_high / 1e9);
            if (rep->stats.ci95_low > 0 && rep->bytes_per_rep > 0)
                band.hi = std::max(band.hi, rep->bytes_per_rep / rep->stats.ci95_low / 1e9);
        }
        const bool out = outside(band, p.bandwidth_gbps);
        entry["band_gbps"] = {band.lo, band.unbounded ? nlohmann::json(nullptr) : nlohmann::json(band.hi)};
        entry["outside"] = out;
        if (out) entry["side"] = p.bandwidth_gbps < band.lo ? "below" : "above";
        v.compared.push_back(std::move(entry));
        if (out && !v.promote) {
            const std::string range =
                "band " + gbps(band.lo) + " to " + (band.unbounded ? std::string("any higher") : gbps(band.hi));
            v.reason = "at " + format_size(p.bytes) + " " + gbps(p.bandwidth_gbps) + ", " +
                       ratio_percent(p.bandwidth_gbps / centre) + " from " +
                       (by_class ? "the median of " + std::to_string(logs.size()) + " links of its class (" +
                                       gbps(centre) + "; " + range + "; " + rep_name + " " + gbps(r) + ")"
                                 : rep_name + " (" + gbps(r) + "; " + range + ")");
        }
        v.promote = v.promote || out;
    }
    return v;
}

}  // namespace

ConfirmationVerdict judge_confirmation(const Record& member, const Record& representative, double tolerance) {
    return judge_points(member, representative, {}, tolerance);
}

std::vector<const Record*> kept_confirmations(const ResultsFile& results, const std::string& representative_key) {
    std::vector<const Record*> out;
    for (const Record& r : results.records)
        if (r.measured_as == "confirmed" && r.context.contains("confirmation") &&
            r.context["confirmation"].value("representative", "") == representative_key)
            out.push_back(&r);
    return out;
}

bool outside_again(const ConfirmationVerdict& first, const ConfirmationVerdict& second) {
    if (first.failed || second.failed) return true;  // a failed size needs no second opinion
    for (const auto& a : second.compared) {
        if (!a.value("outside", false)) continue;
        for (const auto& b : first.compared)
            if (b.value("outside", false) && b.value("bytes", std::uint64_t{0}) == a.value("bytes", std::uint64_t{0}) &&
                b.value("axes", nlohmann::json::object()) == a.value("axes", nlohmann::json::object()) &&
                b.value("side", "") == a.value("side", ""))
                return true;
    }
    return false;
}

std::vector<ConfirmationVerdict> judge_class(const std::vector<const Record*>& members,
                                             const std::vector<const Record*>& siblings, const Record& representative,
                                             double tolerance) {
    std::vector<const Record*> links = siblings;
    links.insert(links.end(), members.begin(), members.end());
    std::vector<ConfirmationVerdict> verdicts;
    for (const Record* m : members) verdicts.push_back(judge_points(*m, representative, links, tolerance));
    return verdicts;
}

}  // namespace hwcomm
