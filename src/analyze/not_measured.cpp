#include "analyze/not_measured.hpp"

#include <map>

namespace hwcomm::analyze {

std::vector<MethodWithoutData> methods_without_data(const ResultsFile& file) {
    std::vector<MethodWithoutData> out;
    const nlohmann::json* listed = nullptr;
    if (file.meta.is_object() && file.meta.contains("run") && file.meta["run"].is_object() &&
        file.meta["run"].contains("not_measured"))
        listed = &file.meta["run"]["not_measured"];
    if (listed && listed->is_array())
        for (const auto& m : *listed)
            if (m.is_object() && m.value("method", "") != "")
                out.push_back({m.value("method", ""), m.value("why", "")});
    // Methods planned but without one ok point: every record skipped or failed.
    struct Tally {
        std::size_t records = 0, ok = 0, skipped = 0;
        std::string first_skip, first_error;
    };
    std::map<std::string, Tally> by_method;
    std::vector<std::string> order;
    for (const Record& r : file.records) {
        if (!by_method.count(r.method)) order.push_back(r.method);
        Tally& t = by_method[r.method];
        ++t.records;
        bool any_ok = false;
        for (const Point& p : r.points) any_ok = any_ok || p.status == "ok";
        if (r.status == "skipped") {
            ++t.skipped;
            if (t.first_skip.empty()) t.first_skip = r.error;
        } else if (any_ok) {
            ++t.ok;
        } else if (t.first_error.empty()) {
            t.first_error = r.key + ": " + (r.error.empty() ? "no point measured" : r.error);
        }
    }
    for (const std::string& m : order) {
        const Tally& t = by_method[m];
        if (t.ok) continue;
        const std::string n = std::to_string(t.records) + " record(s)";
        if (t.skipped == t.records) out.push_back({m, "every record skipped (" + n + "): " + t.first_skip});
        else if (t.skipped) out.push_back({m, n + " skipped or failed; first skipped: " + t.first_skip});
        else out.push_back({m, "every record failed (" + n + "); first: " + t.first_error});
    }
    return out;
}

std::string format_methods_without_data(const std::vector<MethodWithoutData>& list, const std::string& source) {
    if (list.empty()) return "";
    std::string out = "\nmethods that measured nothing" + (source.empty() ? "" : " in " + source) + ":\n";
    for (const auto& m : list) out += "  " + m.method + ": " + m.why + "\n";
    return out;
}

}  // namespace hwcomm::analyze
