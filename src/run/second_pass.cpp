#include "run/second_pass.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <set>

#include "measure/byte_size.hpp"
#include "measure/link_text.hpp"

namespace hwcomm {

namespace {

std::string range_text(double lo, double hi) {
    return format_number(lo, "%.4g") + "-" + format_number(hi, "%.4g") + " GB/s";
}

// Bytes over the mean of the two times.
double mean_rate(double a, double b) { return a > 0 && b > 0 ? 2 / (1 / a + 1 / b) : 0; }

std::set<std::uint64_t> ok_sizes_from(const Record& r, std::uint64_t least) {
    std::set<std::uint64_t> out;
    for (const Point& p : r.points)
        if (p.status == "ok" && p.bandwidth_gbps > 0 && p.bytes >= least) out.insert(p.bytes);
    return out;
}

double best_at(const Record& r, std::uint64_t bytes) {
    double best = 0;
    for (const Point& p : r.points)
        if (p.status == "ok" && p.bytes == bytes) best = std::max(best, p.bandwidth_gbps);
    return best;
}

}  // namespace

double class_view_gbps(const Record& link, std::uint64_t bytes) {
    const auto recheck = link.context.find("recheck");
    if (recheck != link.context.end() && recheck->is_object() && recheck->value("verdict", "") != "failed" &&
        recheck->contains("compared") && (*recheck)["compared"].is_array())
        for (const auto& e : (*recheck)["compared"])
            if (e.is_object() && e.value("bytes", std::uint64_t{0}) == bytes &&
                e.value("axes", nlohmann::json::object()).empty() && e.value("again_gbps", 0.0) > 0)
                return e.value("again_gbps", 0.0);
    return best_at(link, bytes);
}

std::optional<SecondPass> plan_second_pass(const std::vector<const Record*>& links, double tolerance) {
    if (links.size() < 2) return std::nullopt;
    std::set<std::uint64_t> common = ok_sizes_from(*links.front(), kConfirmationPlateauBytes);
    for (const Record* r : links) {
        const std::set<std::uint64_t> mine = ok_sizes_from(*r, kConfirmationPlateauBytes);
        std::set<std::uint64_t> both;
        std::set_intersection(common.begin(), common.end(), mine.begin(), mine.end(), std::inserter(both, both.end()));
        common = std::move(both);
    }
    if (common.empty()) return std::nullopt;
    SecondPass pass;
    pass.bytes = *common.begin();  // the confirmations' plateau size: the cheapest analyze compares
    for (const Record* r : links) pass.first_gbps.push_back(class_view_gbps(*r, pass.bytes));
    const auto [lo, hi] = std::minmax_element(pass.first_gbps.begin(), pass.first_gbps.end());
    if (!(*lo > 0)) return std::nullopt;
    pass.spread = *hi / *lo - 1;
    if (pass.spread <= tolerance) return std::nullopt;
    pass.reason = "its " + std::to_string(links.size()) + " links spread " + ratio_percent(*hi / *lo) + " at " +
                  format_size(pass.bytes) + " (" + range_text(*lo, *hi) + "), measured one after another";
    return pass;
}

nlohmann::json second_pass_entry(const SecondPass& pass, std::size_t position, const Record& again, double elapsed_s) {
    nlohmann::json e = {{"reason", pass.reason},
                        {"bytes", pass.bytes},
                        {"first_gbps", position < pass.first_gbps.size() ? pass.first_gbps[position] : 0.0},
                        {"position", {position + 1, pass.first_gbps.size()}},
                        {"elapsed_s", elapsed_s}};
    if (const double g = best_at(again, pass.bytes); g > 0) {
        e["again_gbps"] = g;
        return e;
    }
    std::string error = again.error;
    for (const Point& p : again.points)
        if (p.status != "ok" && error.empty()) error = p.error.empty() ? p.status : p.error;
    e["error"] = error.empty() ? "no point measured at " + format_size(pass.bytes) : error;
    return e;
}

std::string second_pass_line(const std::string& representative_key, const SecondPass& pass,
                             const std::vector<nlohmann::json>& entries) {
    std::string line = representative_key + ": " + pass.reason + "; each measured once more there: ";
    std::vector<double> means;
    double moved = 0;  // the most one link moved between its two measurements
    std::size_t failed = 0;
    for (const auto& e : entries) {
        const double first = e.value("first_gbps", 0.0), again = e.value("again_gbps", 0.0);
        if (!(again > 0) || !(first > 0)) {
            ++failed;
            continue;
        }
        means.push_back(mean_rate(first, again));
        if (std::abs(again / first - 1) > std::abs(moved)) moved = again / first - 1;
    }
    if (means.size() < 2) return line + std::to_string(failed) + " of " + std::to_string(entries.size()) + " failed";
    const auto [lo, hi] = std::minmax_element(means.begin(), means.end());
    line += "the means of the two " + range_text(*lo, *hi) + " (" + ratio_percent(*hi / *lo) +
            "), one link moved up to " + ratio_percent(1 + moved);
    if (failed) line += ", " + std::to_string(failed) + " failed";
    return line;
}

}  // namespace hwcomm
