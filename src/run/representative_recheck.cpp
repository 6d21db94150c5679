#include "run/representative_recheck.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "measure/byte_size.hpp"
#include "measure/link_text.hpp"

namespace hwcomm {

namespace {

using SizeKey = std::pair<std::uint64_t, std::string>;  // bytes, axes as JSON text

SizeKey size_key(const nlohmann::json& entry) {
    return {entry.value("bytes", std::uint64_t{0}), entry.value("axes", nlohmann::json::object()).dump()};
}

// Per size, the class's view of the record judged as its representative: the
// first compared entry that carries the class's spread.
std::map<SizeKey, nlohmann::json> class_entries(const std::vector<ConfirmationVerdict>& verdicts) {
    std::map<SizeKey, nlohmann::json> out;
    for (const ConfirmationVerdict& v : verdicts)
        for (const auto& e : v.compared)
            if (e.contains("class") && e["class"].is_object()) out.emplace(size_key(e), e);
    return out;
}

// A second measurement with a point that did not measure, or none at all (its
// set-up failed), cannot be judged: `r` says "failed" and why.
bool failed_point(const Record& again, nlohmann::json& r) {
    std::string error;
    for (const Point& p : again.points)
        if (p.status != "ok") {
            error = format_size(p.bytes) + ": " + (p.error.empty() ? p.status : p.error);
            break;
        }
    if (error.empty() && again.points.empty() && again.status != "ok")
        error = again.error.empty() ? again.status : again.error;
    if (error.empty()) return false;
    r["verdict"] = "failed";
    r["error"] = error;
    return true;
}

}  // namespace

nlohmann::json representative_outside(const std::vector<ConfirmationVerdict>& verdicts) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& [key, e] : class_entries(verdicts)) {
        const auto& c = e["class"];
        if (!c.value("representative_outside", false)) continue;
        const double first = e.value("representative_gbps", 0.0), median = c.value("median_gbps", 0.0);
        out.push_back({{"bytes", key.first},
                       {"axes", e.value("axes", nlohmann::json::object())},
                       {"first_gbps", first},
                       {"class_median_gbps", median},
                       {"links", c.value("links", 0)},
                       {"side", first < median ? "below" : "above"}});
    }
    return out;
}

nlohmann::json judge_recheck(const nlohmann::json& first_outside, const Record& again,
                             const std::vector<const Record*>& members, double tolerance) {
    nlohmann::json r = {{"compared", nlohmann::json::array()}};
    if (!first_outside.empty()) {
        const auto& f = first_outside.front();
        r["reason"] = "at " + format_size(f.value("bytes", std::uint64_t{0})) + " " +
                      format_number(f.value("first_gbps", 0.0), "%.4g") + " GB/s, " +
                      ratio_percent(f.value("first_gbps", 0.0) / f.value("class_median_gbps", 1.0)) +
                      " from the median of its class's " + std::to_string(f.value("links", 0)) + " links (" +
                      format_number(f.value("class_median_gbps", 0.0), "%.4g") + " GB/s)";
    }
    if (failed_point(again, r)) return r;
    std::map<SizeKey, std::string> first_side;
    for (const auto& f : first_outside) first_side[size_key(f)] = f.value("side", "");
    bool again_outside = false;
    for (const auto& [size, e] : class_entries(judge_class(members, {}, again, tolerance))) {
        const SizeKey key = size;  // clang 14 cannot capture a structured binding
        const auto& c = e["class"];
        const double mine = e.value("representative_gbps", 0.0), median = c.value("median_gbps", 0.0);
        nlohmann::json entry = {{"bytes", key.first},
                                {"axes", e.value("axes", nlohmann::json::object())},
                                {"again_gbps", mine},
                                {"class_median_gbps", median},
                                {"links", c.value("links", 0)},
                                {"outside", c.value("representative_outside", false)}};
        if (const auto f = std::find_if(first_outside.begin(), first_outside.end(),
                                        [&](const nlohmann::json& x) { return size_key(x) == key; });
            f != first_outside.end())
            entry["first_gbps"] = f->value("first_gbps", 0.0);
        if (entry["outside"].get<bool>()) {
            const std::string side = mine < median ? "below" : "above";
            entry["side"] = side;
            if (const auto s = first_side.find(key); s != first_side.end() && s->second == side) again_outside = true;
        }
        r["compared"].push_back(std::move(entry));
    }
    r["verdict"] = r["compared"].empty() ? "not compared" : again_outside ? "outside again" : "within";
    return r;
}

bool judged_by_representative_alone(const ConfirmationVerdict& verdict) {
    return !verdict.compared.empty() &&
           std::none_of(verdict.compared.begin(), verdict.compared.end(),
                        [](const nlohmann::json& e) { return e.contains("class") && e["class"].is_object(); });
}

nlohmann::json judge_pair_recheck(const ConfirmationVerdict& second, const Record& again,
                                  const ConfirmationVerdict& beside) {
    nlohmann::json r = {{"trigger", "pair"},
                        {"reason", "its class's other link lay outside its sweep twice, the second time " + second.reason},
                        {"compared", nlohmann::json::array()}};
    if (failed_point(again, r)) return r;
    std::map<SizeKey, double> sweep;
    for (const auto& e : second.compared)  // where the member lay outside the sweep
        if (e.value("outside", false)) sweep[size_key(e)] = e.value("representative_gbps", 0.0);
    for (const auto& e : beside.compared) {
        const double mine = e.value("representative_gbps", 0.0), other = e.value("bandwidth_gbps", 0.0);
        nlohmann::json entry = {{"bytes", e.value("bytes", std::uint64_t{0})},
                                {"axes", e.value("axes", nlohmann::json::object())},
                                {"again_gbps", mine},
                                {"other_gbps", other},
                                {"outside", e.value("outside", false)}};
        if (const auto f = sweep.find(size_key(e)); f != sweep.end()) entry["first_gbps"] = f->second;
        if (entry["outside"].get<bool>()) entry["side"] = mine < other ? "below" : "above";
        r["compared"].push_back(std::move(entry));
    }
    r["verdict"] = r["compared"].empty() ? "not compared" : outside_again(second, beside) ? "outside again" : "within";
    return r;
}

std::string recheck_line(const std::string& key, const nlohmann::json& recheck) {
    const bool pair = recheck.value("trigger", "") == "pair";
    std::string line = key + (pair ? ": " : ": its confirmations put it outside its class (") +
                       recheck.value("reason", "") + (pair ? "; measured again beside it: " : "); measured again beside them: ");
    const std::string verdict = recheck.value("verdict", "");
    if (verdict == "failed") return line + "failed (" + recheck.value("error", "") + ")";
    if (verdict == "not compared") return line + "no size to compare";
    bool other_way = false;  // outside again, but on the other side: not "within" the class either
    for (const auto& e : recheck["compared"])
        if (e.contains("first_gbps")) {
            other_way = e.value("outside", false);
            line += format_size(e.value("bytes", std::uint64_t{0})) + " " + format_number(e.value("again_gbps", 0.0), "%.4g") +
                    " GB/s, " +
                    ratio_percent(e.value("again_gbps", 0.0) / e.value(pair ? "other_gbps" : "class_median_gbps", 1.0)) +
                    (pair ? " from the other link; " : "; ");
            break;
        }
    if (verdict == "within" && other_way)
        return line + "outside the other way this time: the time each ran moved it, not the link";
    if (verdict == "within")
        return line + (pair ? "within: the sweep's difference was the time it ran, not the link"
                            : "within its class: the first sweep's difference was the time it ran, not the link");
    return line + "outside again: the link differs";
}

}  // namespace hwcomm
