#include "core/results.hpp"

#include <algorithm>

namespace hwcomm {

const Record* ResultsFile::find(const std::string& key) const {
    for (const auto& r : records)
        if (r.key == key) return &r;
    return nullptr;
}

std::optional<double> seconds_outside_points(const Record& r) {
    if (!r.context.is_object() || r.points.empty()) return std::nullopt;
    const auto elapsed = r.context.find("elapsed_s");
    if (elapsed == r.context.end() || !elapsed->is_number()) return std::nullopt;
    double in_points = 0;
    for (const Point& p : r.points) {
        if (!(p.elapsed_s > 0)) return std::nullopt;
        in_points += p.elapsed_s;
    }
    return std::max(0.0, elapsed->get<double>() - in_points);
}

std::string record_key(const std::string& method, const std::string& src, const std::string& dst,
                       const std::map<std::string, std::string>& params) {
    std::string key = method + "|" + src + "|" + dst + "|";
    bool first = true;
    for (const auto& [k, v] : params) {
        if (!first) key += ",";
        key += k + "=" + v;
        first = false;
    }
    return key;
}

}  // namespace hwcomm
