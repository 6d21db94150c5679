#include "analyze/class_outliers.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "analyze/curve_metrics.hpp"
#include "analyze/host_read.hpp"
#include "analyze/record_facts.hpp"
#include "analyze/record_classes.hpp"
#include "analyze/representative_recheck.hpp"
#include "analyze/summary.hpp"
#include "measure/byte_size.hpp"
#include "measure/link_text.hpp"
#include "measure/statistics.hpp"

namespace hwcomm::analyze {

namespace {

bool is_size_sweep(const Record& r) {
    if (r.status != "ok") return false;
    return std::none_of(r.points.begin(), r.points.end(), [](const Point& p) { return !p.axes.empty(); });
}

// How far the bandwidth of a point may be from its median and still lie in
// its 95% confidence interval, relative; 0 when the point has none.
double ci_half_width(const CurvePoint& p) {
    if (!(p.seconds > 0) || !(p.ci_low_s > 0) || !(p.ci_high_s > 0)) return 0;
    return std::max(p.seconds / p.ci_low_s - 1.0, 1.0 - p.seconds / p.ci_high_s);
}

std::string signed_percent(double v) { return format_number(v * 100, "%+.1f%%"); }

using Curve = std::map<std::uint64_t, CurvePoint>;

// The class's centre at each window size where kClassSpreadLinks or more
// members have a point: the median bandwidth, and the robust scatter of log
// bandwidth there (median absolute deviation / 0.6745), and how many links'
// bandwidths made them there.
constexpr std::size_t kClassSpreadLinks = 3;
struct ClassCentre {
    std::map<std::uint64_t, double> median_gbps;
    std::map<std::uint64_t, std::size_t> links;
    double scatter = 0;  // the median over those sizes
};

ClassCentre class_centre(const std::map<ClassMember, Curve>& curves, const VerdictRule& rule) {
    std::map<std::uint64_t, std::vector<double>> logs;
    for (const auto& [member, curve] : curves)
        for (const auto& [bytes, p] : curve)
            if (rule.in_window(bytes) && p.gbps > 0) logs[bytes].push_back(std::log(p.gbps));
    ClassCentre c;
    std::vector<double> scatters;
    for (const auto& [bytes, v] : logs) {
        // Half the class at least: at sizes only full sweeps reach, the
        // representative and the promoted members alone would make the centre,
        // and a few promoted alike would be their own median (nvidia-h200-x4,
        // a58615a: the peer chases from gpu2, 5.3-5.9% faster at 64 MiB than
        // the 12 links' median, were 3 of the 5 curves at 128-512 MiB).
        if (v.size() < kClassSpreadLinks || 2 * v.size() < curves.size()) continue;
        c.median_gbps[bytes] = std::exp(median_value(v));
        c.links[bytes] = v.size();
        scatters.push_back(robust_sd(v));
    }
    if (!scatters.empty()) c.scatter = median_value(scatters);
    return c;
}

// The probe's rate around `record` over the rate around what it was compared
// with: its representative, or the median over the class's records.
std::optional<double> host_read_ratio(const Record& record, const Record& representative,
                                      const std::map<ClassMember, const Record*>& members, bool against_class) {
    if (!has_numa_endpoint(record)) return std::nullopt;
    const auto mine = host_read_mean(record);
    if (!mine) return std::nullopt;
    std::optional<double> theirs;
    if (against_class) {
        std::vector<double> means;
        for (const auto& [member, r] : members)
            if (const auto m = host_read_mean(*r)) means.push_back(*m);
        if (!means.empty()) theirs = median_value(means);
    } else {
        theirs = host_read_mean(representative);
    }
    if (!theirs || !(*theirs > 0)) return std::nullopt;
    return *mine / *theirs;
}

}  // namespace

std::vector<ClassOutlier> class_outliers(const ResultsFile& file, const ClassMap& classes, const VerdictRule& rule) {
    // (method, comparable params, class) -> member -> record
    using Group = std::map<std::tuple<std::string, std::map<std::string, std::string>, std::string>,
                           std::map<ClassMember, const Record*>>;
    Group groups;
    for (const Record& r : file.records) {
        if (!is_size_sweep(r)) continue;
        const LinkClass* c = classes.find(member_of(r));
        if (!c || c->members.size() < 2) continue;
        groups[{r.method, comparable_params(r), c->id}][member_of(r)] = &r;
    }
    std::vector<ClassOutlier> out;
    for (const auto& [key, members] : groups) {
        const std::string& class_id = std::get<2>(key);  // clang 14 cannot capture a structured binding
        const LinkClass& c = *std::find_if(classes.classes.begin(), classes.classes.end(),
                                           [&](const LinkClass& x) { return x.id == class_id; });
        const auto rep_it = members.find(c.members.front());
        if (rep_it == members.end()) continue;  // no representative: nothing says what the class does
        std::map<ClassMember, Curve> curves;
        for (const auto& [member, record] : members) {
            for (const CurvePoint& p : curve_points(*record)) curves[member][p.bytes] = p;
            // A representative measured again beside its class, a confirmation measured twice on
            // either side of it, a link of a class measured twice (analyze/representative_recheck.hpp):
            // those measurements there.
            for (const auto& [bytes, gbps] : class_comparison_gbps(*record)) {
                CurvePoint& p = curves[member][bytes];
                p = CurvePoint{};
                p.bytes = bytes;
                p.gbps = gbps;
                p.seconds = static_cast<double>(bytes) / (gbps * 1e9);
            }
        }
        const Curve& rep = curves[rep_it->first];
        const ClassCentre centre = class_centre(curves, rule);
        for (const auto& [member, record] : members) {
            const Curve& mine = curves[member];
            ClassOutlier o;
            std::vector<double> diffs;
            double ci = 0;
            // Against the class's median where it has one at this member's sizes
            // (the representative judged too); else against the representative.
            std::size_t links = members.size();
            for (const auto& [bytes, p] : mine)
                if (const auto m = centre.median_gbps.find(bytes); m != centre.median_gbps.end()) {
                    diffs.push_back(p.gbps / m->second - 1.0);
                    ci = std::max(ci, ci_half_width(p));
                    o.sizes.push_back(bytes);
                    links = std::min(links, centre.links.at(bytes));
                }
            if (!diffs.empty()) {
                o.class_links = links;
                o.tolerance = std::max({rule.threshold, ci, std::exp(kModifiedZOutlier * centre.scatter) - 1.0});
            } else {
                if (record == rep_it->second) continue;
                std::vector<const CurvePoint*> common, all_common;
                for (const auto& [bytes, p] : mine) {
                    if (!rep.count(bytes)) continue;
                    all_common.push_back(&p);
                    if (rule.in_window(bytes)) common.push_back(&p);
                }
                if (common.empty()) {
                    if (all_common.empty()) continue;
                    common = {all_common.back()};
                    o.in_window = false;
                }
                for (const CurvePoint* p : common) {
                    diffs.push_back(p->gbps / rep.at(p->bytes).gbps - 1.0);
                    ci = std::max(ci, ci_half_width(rep.at(p->bytes)));
                    o.sizes.push_back(p->bytes);
                }
                o.tolerance = std::max(rule.threshold, ci);
            }
            o.difference = rule.reduce(diffs);
            if (std::abs(o.difference) <= o.tolerance) continue;
            o.host_read_ratio = host_read_ratio(*record, *rep_it->second, members, o.class_links > 0);
            o.key = record->key;
            o.representative = rep_it->second->key;
            o.class_id = c.id;
            o.class_description = c.description;
            o.measured_as = measured_as_text(*record);
            out.push_back(std::move(o));
        }
    }
    return out;
}

Anomaly outlier_anomaly(const ClassOutlier& o) {
    std::string sizes = format_size(o.sizes.front());
    // Appended in steps: GCC 12's -Wrestrict misreads "literal" + std::string temporaries.
    if (o.sizes.size() > 1) {
        sizes += '-';
        sizes += format_size(o.sizes.back());
    }
    const std::string from = o.class_links ? "the median of the " + std::to_string(o.class_links) +
                                                 " links of its class (representative " + o.representative + ")"
                                           : "its class representative " + o.representative;
    std::string text = o.key + " is " + signed_percent(o.difference) + " from " + from +
                       " at " + sizes + (o.in_window ? "" : " (below the size window: the largest size both measured)") +
                       ", beyond " + signed_percent(o.tolerance).substr(1) + "; class " + o.class_id + ": " +
                       o.class_description + "; measured as " + o.measured_as;
    if (o.host_read_ratio) {
        text += "; around it the host read probe read " + signed_percent(*o.host_read_ratio - 1) + " against " +
                (o.class_links ? "its class's records" : "its representative") +
                host_read_wording(*o.host_read_ratio, o.difference);
    }
    return {"identical-link-outlier", text, {o.key, o.representative}};
}

}  // namespace hwcomm::analyze
