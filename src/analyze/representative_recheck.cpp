#include "analyze/representative_recheck.hpp"

#include <string>

#include "analyze/curve_metrics.hpp"
#include "analyze/host_read.hpp"
#include "measure/byte_size.hpp"

namespace hwcomm::analyze {

namespace {

const nlohmann::json* recheck_of(const Record& r) {
    const auto it = r.context.find("recheck");
    return it != r.context.end() && it->is_object() ? &*it : nullptr;
}

// A number the file may lack or hold as another type: 0.
double number_field(const nlohmann::json& e, const char* name) {
    const auto it = e.find(name);
    return it != e.end() && it->is_number() ? it->get<double>() : 0.0;
}

std::string string_of(const nlohmann::json& e, const char* name, const std::string& otherwise) {
    const auto it = e.find(name);
    return it != e.end() && it->is_string() ? it->get<std::string>() : otherwise;
}

bool flag(const nlohmann::json& e, const char* name) {
    const auto it = e.find(name);
    return it != e.end() && it->is_boolean() && it->get<bool>();
}

std::uint64_t bytes_of(const nlohmann::json& e) {
    const auto it = e.find("bytes");
    return it != e.end() && it->is_number_unsigned() ? it->get<std::uint64_t>() : 0;
}

// An entry of a point without axes (the records' plain size points).
bool without_axes(const nlohmann::json& e) {
    return !e.contains("axes") || (e["axes"].is_object() && e["axes"].empty());
}

// The entries of a recheck that did not fail; null otherwise.
const nlohmann::json* recheck_entries(const Record& record) {
    const nlohmann::json* r = recheck_of(record);
    if (!r || string_of(*r, "verdict", "") == "failed" || !r->contains("compared") || !(*r)["compared"].is_array())
        return nullptr;
    return &(*r)["compared"];
}

// A confirmation measured twice: its context.confirmation, the first measurement's entries and the kept one's.
struct TwoMeasurements {
    const nlohmann::json* confirmation = nullptr;
    const nlohmann::json* first = nullptr;
    const nlohmann::json* kept = nullptr;
};
std::optional<TwoMeasurements> measured_twice(const Record& record) {
    const auto c = record.context.find("confirmation");
    if (c == record.context.end() || !c->is_object() || !c->contains("compared") || !(*c)["compared"].is_array())
        return std::nullopt;
    const auto first = c->find("first_measurement");
    if (first == c->end() || !first->is_object() || !first->contains("compared") || !(*first)["compared"].is_array())
        return std::nullopt;
    return TwoMeasurements{&*c, &(*first)["compared"], &(*c)["compared"]};
}

// Measured again because its class's one other link lay outside its sweep twice (run/representative_recheck.hpp).
bool is_pair(const nlohmann::json& recheck) { return string_of(recheck, "trigger", "") == "pair"; }

// The first size where the sweep lay outside (it carries first_gbps).
const nlohmann::json* first_outside(const nlohmann::json& recheck) {
    if (!recheck.contains("compared") || !recheck["compared"].is_array()) return nullptr;
    for (const auto& e : recheck["compared"])
        if (e.is_object() && e.contains("first_gbps")) return &e;
    return nullptr;
}

// "within" means not outside again on the same side: the second measurement
// may lie outside the other way (on 4x H200 at 49947bf um-prefetch gpu0->numa0
// +18.5% from its class's median in its sweep, -31.8% measured again).
bool outside_the_other_way(const nlohmann::json& recheck) {
    const nlohmann::json* e = first_outside(recheck);
    return e && flag(*e, "outside");
}

// What the second measurement is compared with: the class's median, or the other link.
double reference_gbps(const nlohmann::json& recheck, const nlohmann::json& entry) {
    return number_field(entry, is_pair(recheck) ? "other_gbps" : "class_median_gbps");
}

// second_pass_repeat, given what the first pass compared the record by (`view`: first_pass_view).
std::optional<SameLinkRepeat> second_pass_beside(const Record& record, const std::map<std::uint64_t, double>& view) {
    const auto it = record.context.find("second_pass");
    if (it == record.context.end() || !it->is_object() || bytes_of(*it) == 0 || !(number_field(*it, "again_gbps") > 0))
        return std::nullopt;
    const std::uint64_t bytes = bytes_of(*it);
    // What the class compared it by before: a measurement beside the class, else its curve.
    double before = 0;
    if (const auto at = view.find(bytes); at != view.end()) before = at->second;
    else
        for (const CurvePoint& p : curve_points(record))
            if (p.bytes == bytes) before = p.gbps;
    if (!(before > 0)) return std::nullopt;
    return SameLinkRepeat{bytes, before, number_field(*it, "again_gbps")};
}

}  // namespace

std::map<std::uint64_t, double> rechecked_gbps(const Record& record) {
    std::map<std::uint64_t, double> out;
    const nlohmann::json* entries = recheck_entries(record);
    if (!entries) return out;
    for (const auto& e : *entries) {
        if (!e.is_object() || bytes_of(e) == 0 || !without_axes(e)) continue;
        if (const double g = number_field(e, "again_gbps"); g > 0) out[bytes_of(e)] = g;
    }
    return out;
}

std::map<std::uint64_t, double> measured_twice_gbps(const Record& record) {
    std::map<std::uint64_t, double> out;
    const auto twice = measured_twice(record);
    if (!twice || !twice->confirmation->contains("outside_again_elsewhere")) return out;
    // Per size without axes, the side of an outside entry: {bytes -> (side, GB/s)}.
    const auto outside = [](const nlohmann::json& list) {
        std::map<std::uint64_t, std::pair<std::string, double>> m;
        for (const auto& e : list)
            if (e.is_object() && bytes_of(e) > 0 && without_axes(e) && flag(e, "outside") &&
                number_field(e, "bandwidth_gbps") > 0)
                m[bytes_of(e)] = {string_of(e, "side", ""), number_field(e, "bandwidth_gbps")};
        return m;
    };
    const auto a = outside(*twice->first), b = outside(*twice->kept);
    for (const auto& [bytes, first_side] : a)
        if (const auto it = b.find(bytes); it != b.end() && !first_side.first.empty() && !it->second.first.empty() &&
                                           first_side.first != it->second.first)
            out[bytes] = 2 / (1 / first_side.second + 1 / it->second.second);  // bytes over the mean time
    return out;
}

std::map<std::uint64_t, double> first_pass_view(const Record& record) {
    std::map<std::uint64_t, double> out = rechecked_gbps(record);
    return out.empty() ? measured_twice_gbps(record) : out;
}

std::map<std::uint64_t, double> class_comparison_gbps(const Record& record) {
    std::map<std::uint64_t, double> out = first_pass_view(record);
    if (const auto twice = second_pass_beside(record, out)) out[twice->bytes] = mean_of_two(*twice);
    return out;
}

std::vector<SameLinkRepeat> same_link_repeats(const Record& record) {
    std::vector<SameLinkRepeat> out;
    if (const nlohmann::json* entries = recheck_entries(record)) {
        std::map<std::uint64_t, double> sweep;
        for (const CurvePoint& p : curve_points(record)) sweep[p.bytes] = p.gbps;
        for (const auto& e : *entries) {
            if (!e.is_object() || bytes_of(e) == 0 || !without_axes(e)) continue;
            const double again = number_field(e, "again_gbps");
            double first = number_field(e, "first_gbps");
            if (first <= 0)
                if (const auto it = sweep.find(bytes_of(e)); it != sweep.end()) first = it->second;
            if (first > 0 && again > 0) out.push_back({bytes_of(e), first, again});
        }
        return out;
    }
    const auto twice = measured_twice(record);
    if (!twice) return out;
    std::map<std::uint64_t, double> before;
    for (const auto& e : *twice->first)
        if (e.is_object() && bytes_of(e) > 0 && without_axes(e) && number_field(e, "bandwidth_gbps") > 0)
            before[bytes_of(e)] = number_field(e, "bandwidth_gbps");
    for (const auto& e : *twice->kept)
        if (e.is_object() && bytes_of(e) > 0 && without_axes(e) && number_field(e, "bandwidth_gbps") > 0)
            if (const auto it = before.find(bytes_of(e)); it != before.end())
                out.push_back({bytes_of(e), it->second, number_field(e, "bandwidth_gbps")});
    return out;
}

std::optional<SameLinkRepeat> second_pass_repeat(const Record& record) {
    return second_pass_beside(record, first_pass_view(record));
}

double mean_of_two(const SameLinkRepeat& r) { return 2 / (1 / r.first_gbps + 1 / r.again_gbps); }

std::string measured_twice_note(const Record& record) {
    const auto twice = measured_twice(record);
    if (!twice) return "";
    // Off its reference (the class's median where the class judged, else the representative) at a size.
    const auto off = [](const nlohmann::json& e) -> std::optional<double> {
        const double mine = number_field(e, "bandwidth_gbps");
        double centre = number_field(e, "representative_gbps");
        if (const auto k = e.find("class"); k != e.end() && k->is_object()) centre = number_field(*k, "median_gbps");
        if (mine <= 0 || centre <= 0) return std::nullopt;
        return mine / centre - 1;
    };
    for (const auto& a : *twice->first) {
        if (!a.is_object() || !flag(a, "outside") || bytes_of(a) == 0) continue;
        for (const auto& b : *twice->kept) {
            if (!b.is_object() || bytes_of(b) != bytes_of(a) ||
                a.value("axes", nlohmann::json()) != b.value("axes", nlohmann::json()))
                continue;
            const auto x = off(a), y = off(b);
            if (!x || !y) continue;
            // The pair recheck: the kept measurement against the representative measured again.
            if (twice->confirmation->contains("beside_representative_again"))
                return "confirmed twice, outside the representative's sweep both times (at " +
                       format_size(bytes_of(a)) + " " + format_number(*x * 100, "%+.1f%%") + " the first); " +
                       format_number(*y * 100, "%+.1f%%") + " from the representative measured again right after: kept";
            const bool by_class = a.contains("class") && a["class"].is_object();
            const bool either_side = flag(b, "outside") && (*x > 0) != (*y > 0);
            return "confirmed twice: at " + format_size(bytes_of(a)) + " " + format_number(*x * 100, "%+.1f%%") +
                   " then " + format_number(*y * 100, "%+.1f%%") + " from " +
                   (by_class ? "its class's median" : "the representative") +
                   (either_side ? ", on either side: kept as noise, its class compares it by both"
                                : ": the second kept");
        }
    }
    return "";
}

std::string second_pass_note(const Record& record) {
    const auto it = record.context.find("second_pass");
    if (it == record.context.end() || !it->is_object()) return "";
    const std::string t = "its class measured twice (" + string_of(*it, "reason", "?") + "): ";
    if (const auto twice = second_pass_repeat(record))
        return t + "here " + format_number(twice->first_gbps, "%.4g") + " then " +
               format_number(twice->again_gbps, "%.4g") + " GB/s (" +
               format_number((twice->again_gbps / twice->first_gbps - 1) * 100, "%+.1f%%") +
               "); its class compares it by both";
    return t + "the second measurement failed (" + string_of(*it, "error", "nothing measured") + ")";
}

std::optional<Anomaly> recheck_anomaly(const Record& record) {
    const nlohmann::json* r = recheck_of(record);
    if (!r) return std::nullopt;
    const std::string verdict = string_of(*r, "verdict", "");
    const bool pair = is_pair(*r);
    std::string t = record.key + (pair ? ": " + string_of(*r, "reason", "?") + "; measured again right after it, "
                                       : " lay outside its class in its sweep (" + string_of(*r, "reason", "?") +
                                             "); measured again beside its class's confirmations ");
    if (verdict == "failed") {
        t += "it failed (" + string_of(*r, "error", "?") + ")";
    } else {
        if (const nlohmann::json* e = first_outside(*r)) {
            const double again = number_field(*e, "again_gbps"), other = reference_gbps(*r, *e);
            t += "it read " + format_number(again, "%.4g") + " GB/s at " + format_size(bytes_of(*e)) +
                 (other > 0 ? " (" + format_number((again / other - 1) * 100, "%+.1f%%") +
                                  (pair ? " from the other link)" : " from the class's median)")
                            : std::string()) +
                 ": ";
        }
        if (verdict == "within" && outside_the_other_way(*r))
            t += std::string(pair ? "apart the other way this time" : "outside the other way this time") +
                 ", so the link lay on both sides of " + (pair ? "the other" : "its class") +
                 " in two measurements: the time each ran (the machine, e.g. the host's memory rate) moved "
                 "it, not the link; the class comparisons use the second measurement there";
        else if (verdict == "within")
            t += std::string(pair ? "the two links agree" : "within its class") +
                 ", so the sweep's difference was the time it ran (the machine, e.g. the host's memory "
                 "rate), not the link; the class comparisons use the second measurement there";
        else if (verdict == "outside again")
            t += pair ? "outside again on the same side: the links differ"
                      : "outside again on the same side: the link differs from its class";
        else
            t += "nothing to compare";
    }
    // The host read probe around each measurement (files with the probe, analyze/host_read.hpp).
    const auto sweep = host_read_mean(record);
    const auto again = r->contains("host_read_gbps") ? host_read_mean((*r)["host_read_gbps"]) : std::nullopt;
    if (sweep && again)
        t += "; the host read probe read " + format_number(*sweep, "%.1f") + " GB/s around the sweep and " +
             format_number(*again, "%.1f") + " around the second measurement (" +
             format_number((*again / *sweep - 1) * 100, "%+.1f%%") + ")";
    return Anomaly{"representative-measured-again", t, {record.key}};
}

std::string recheck_note(const Record& record) {
    const nlohmann::json* r = recheck_of(record);
    if (!r) return "";
    const std::string verdict = string_of(*r, "verdict", "");
    const bool pair = is_pair(*r);
    std::string t = pair ? "its class's other link lay outside its sweep twice" : "its class put it outside";
    if (!pair && r->contains("reason") && (*r)["reason"].is_string()) t += " (" + string_of(*r, "reason", "") + ")";
    t += pair ? "; measured again right after it: " : "; measured again beside it: ";
    if (verdict == "failed") return t + "failed (" + string_of(*r, "error", "?") + ")";
    if (const nlohmann::json* e = first_outside(*r); e && reference_gbps(*r, *e) > 0)
        t += format_number((number_field(*e, "again_gbps") / reference_gbps(*r, *e) - 1) * 100, "%+.1f%%") +
             (pair ? " from it, " : ", ");
    if (verdict == "within" && outside_the_other_way(*r))
        return t + "outside the other way (moved by the time each ran, not the link's)";
    if (verdict == "within")
        return t + "within (its sweep ran at another time than " + (pair ? "the other link)" : "its class)");
    return t + (verdict == "outside again" ? "outside again (the link's)" : "nothing to compare");
}

}  // namespace hwcomm::analyze
