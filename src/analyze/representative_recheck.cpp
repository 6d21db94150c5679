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
double number(const nlohmann::json& e, const char* name) {
    const auto it = e.find(name);
    return it != e.end() && it->is_number() ? it->get<double>() : 0.0;
}

std::string string_of(const nlohmann::json& e, const char* name, const std::string& otherwise) {
    const auto it = e.find(name);
    return it != e.end() && it->is_string() ? it->get<std::string>() : otherwise;
}

std::uint64_t bytes_of(const nlohmann::json& e) {
    const auto it = e.find("bytes");
    return it != e.end() && it->is_number_unsigned() ? it->get<std::uint64_t>() : 0;
}

}  // namespace

std::map<std::uint64_t, double> rechecked_gbps(const Record& record) {
    std::map<std::uint64_t, double> out;
    const nlohmann::json* r = recheck_of(record);
    if (!r || string_of(*r, "verdict", "") == "failed" || !r->contains("compared") || !(*r)["compared"].is_array())
        return out;
    for (const auto& e : (*r)["compared"]) {
        if (!e.is_object() || bytes_of(e) == 0) continue;
        if (e.contains("axes") && !(e["axes"].is_object() && e["axes"].empty())) continue;
        if (const double g = number(e, "again_gbps"); g > 0) out[bytes_of(e)] = g;
    }
    return out;
}

std::optional<Anomaly> recheck_anomaly(const Record& record) {
    const nlohmann::json* r = recheck_of(record);
    if (!r) return std::nullopt;
    const std::string verdict = string_of(*r, "verdict", "");
    std::string t = record.key + " lay outside its class in its sweep (" + string_of(*r, "reason", "?") +
                    "); measured again beside its class's confirmations ";
    if (verdict == "failed") {
        t += "it failed (" + string_of(*r, "error", "?") + ")";
    } else {
        if (r->contains("compared") && (*r)["compared"].is_array())
            for (const auto& e : (*r)["compared"])
                if (e.is_object() && e.contains("first_gbps")) {
                    const double again = number(e, "again_gbps"), median = number(e, "class_median_gbps");
                    t += "it read " + format_number(again, "%.4g") + " GB/s at " +
                         format_size(bytes_of(e)) +
                         (median > 0 ? " (" + format_number((again / median - 1) * 100, "%+.1f%%") + " from the class's median)"
                                     : std::string()) +
                         ": ";
                    break;
                }
        if (verdict == "within")
            t += "within its class, so the sweep's difference was the time it ran (the machine, e.g. the host's memory "
                 "rate), not the link; the class comparisons use the second measurement there";
        else if (verdict == "outside again")
            t += "outside again on the same side: the link differs from its class";
        else
            t += "nothing to compare";
    }
    // The host read probe around each measurement (files with the probe, analyze/host_read.hpp).
    const auto sweep = host_read_mean(record);
    const auto again = r->contains("host_read_gbps") ? host_read_mean((*r)["host_read_gbps"]) : std::nullopt;
    if (sweep && again)
        t += "; the host read probe read " + format_number(*sweep, "%.1f") + " GB/s around the sweep and " +
             format_number(*again, "%.1f") + " around the second measurement (" + format_number((*again / *sweep - 1) * 100, "%+.1f%%") +
             ")";
    return Anomaly{"representative-measured-again", t, {record.key}};
}

std::string recheck_note(const Record& record) {
    const nlohmann::json* r = recheck_of(record);
    if (!r) return "";
    const std::string verdict = string_of(*r, "verdict", "");
    std::string t = "its class put it outside";
    const nlohmann::json* at = nullptr;
    if (r->contains("compared") && (*r)["compared"].is_array())
        for (const auto& e : (*r)["compared"])
            if (e.is_object() && e.contains("first_gbps")) {
                at = &e;
                break;
            }
    const auto off = [](double gbps, double median) {
        return median > 0 ? format_number((gbps / median - 1) * 100, "%+.1f%%") : std::string("?");
    };
    if (r->contains("reason") && (*r)["reason"].is_string()) t += " (" + string_of(*r, "reason", "") + ")";
    t += "; measured again beside it: ";
    if (verdict == "failed") return t + "failed (" + string_of(*r, "error", "?") + ")";
    if (at) t += off(number(*at, "again_gbps"), number(*at, "class_median_gbps")) + ", ";
    return t + (verdict == "within" ? "within (its sweep ran at another time than its class)"
                : verdict == "outside again" ? "outside again (the link's)"
                                             : "nothing to compare");
}

}  // namespace hwcomm::analyze
