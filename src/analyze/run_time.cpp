#include "analyze/run_time.hpp"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <optional>
#include <sstream>

namespace hwcomm::analyze {

namespace {

std::optional<double> number_in(const nlohmann::json& context, const char* key) {
    if (!context.is_object()) return std::nullopt;
    const auto it = context.find(key);
    if (it == context.end() || !it->is_number()) return std::nullopt;
    return it->get<double>();
}

// A confirmation the run measured a second time: kept with its first
// measurement beside it, or promoted after both (run/engine.cpp); or a
// representative measured again beside its class's confirmations
// (context.recheck, run/representative_recheck.hpp); or a link of a class
// measured twice (context.second_pass, run/second_pass.hpp).
bool counts_as_twice(const Record& r) {
    if (!r.context.is_object()) return false;
    for (const char* again : {"recheck", "second_pass"})
        if (const auto it = r.context.find(again); it != r.context.end() && it->is_object()) return true;
    if (r.measured_as == "confirmed") {
        const auto c = r.context.find("confirmation");
        return c != r.context.end() && c->is_object() && c->contains("first_measurement");
    }
    if (r.measured_as != "promoted") return false;
    const auto p = r.context.find("promotion");
    if (p == r.context.end() || !p->is_object()) return false;
    if (const auto twice = p->find("measured_twice"); twice != p->end()) return twice->is_boolean() && twice->get<bool>();
    // Files written before the field (up to 730d24c) say it in the reason only.
    const auto reason = p->find("reason");
    return reason != p->end() && reason->is_string() &&
           reason->get<std::string>().find("measured twice") != std::string::npos;
}

void add(RunTimeRow& row, const Record& r) {
    ++row.records;
    if (r.measured_as == "confirmed") ++row.confirmed;
    else if (r.measured_as == "promoted") ++row.promoted;
    else ++row.full;
    row.measured_twice += counts_as_twice(r);
    const auto estimate = number_in(r.context, "estimate_s");
    const auto elapsed = number_in(r.context, "elapsed_s");
    if (!estimate || !elapsed) return;
    ++row.timed;
    row.estimate_s += *estimate;
    row.elapsed_s += *elapsed;
    row.outside_points_s += seconds_outside_points(r).value_or(0);  // 0: the points do not say
}

}  // namespace

std::vector<RunTimeRow> run_time_rows(const ResultsFile& file) {
    std::vector<RunTimeRow> rows;
    RunTimeRow total;
    for (const Record& r : file.records) {
        auto it = std::find_if(rows.begin(), rows.end(), [&](const RunTimeRow& row) { return row.method == r.method; });
        if (it == rows.end()) {
            rows.push_back({});
            rows.back().method = r.method;
            it = rows.end() - 1;
        }
        add(*it, r);
        add(total, r);
    }
    if (total.timed == 0) return {};
    rows.push_back(total);
    return rows;
}

namespace {

// "YYYY-MM-DDTHH:MM:SSZ" (platform/host_info's utc_now_iso8601) as seconds
// since the epoch.
std::optional<double> utc_seconds(const nlohmann::json& value) {
    if (!value.is_string()) return std::nullopt;
    const std::string& text = value.get_ref<const std::string&>();
    std::tm tm{};
    char zone = 0;
    if (text.size() != 20 || std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%c", &tm.tm_year, &tm.tm_mon,
                                         &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &zone) != 7 ||
        zone != 'Z')
        return std::nullopt;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    const std::time_t t = timegm(&tm);
    if (t == static_cast<std::time_t>(-1)) return std::nullopt;
    return static_cast<double>(t);
}

}  // namespace

std::optional<double> run_wall_s(const ResultsFile& file) {
    const nlohmann::json& meta = file.meta;
    if (!meta.is_object() || meta.contains("resumed")) return std::nullopt;
    const auto run = meta.find("run");
    if (run == meta.end() || !run->is_object()) return std::nullopt;
    const std::optional<double> from = utc_seconds(meta.value("date_utc", nlohmann::json()));
    const std::optional<double> to = utc_seconds(run->value("ended_utc", nlohmann::json()));
    if (!from || !to || *to < *from) return std::nullopt;
    return *to - *from;
}

std::string format_run_time(const std::vector<RunTimeRow>& rows, std::optional<double> wall_s) {
    if (rows.empty()) return "";
    std::ostringstream out;
    out << "run time against the plan's estimate (context.elapsed_s and estimate_s of each record)\n";
    char line[200];
    std::snprintf(line, sizeof line, "  %-20s %7s %5s %9s %8s %6s %10s %9s %7s %9s\n", "method", "records", "full",
                  "confirmed", "promoted", "twice", "estimate", "measured", "error", "set-up");
    out << line;
    for (const RunTimeRow& r : rows) {
        const std::string name = r.method.empty() ? "total" : r.method;
        char err[32] = "-";
        if (r.timed && r.elapsed_s > 0) std::snprintf(err, sizeof err, "%+.0f%%", (r.estimate_s / r.elapsed_s - 1) * 100);
        std::snprintf(line, sizeof line, "  %-20s %7zu %5zu %9zu %8zu %6zu %8.1f s %7.1f s %7s %7.1f s\n", name.c_str(),
                      r.records, r.full, r.confirmed, r.promoted, r.measured_twice, r.estimate_s, r.elapsed_s, err,
                      r.outside_points_s);
        out << line;
    }
    out << "  error = estimate / measured - 1, over the records that carry both; a promotion's time includes its\n"
           "  confirmation, its estimate is the confirmation's. twice: confirmations outside their class once and\n"
           "  measured again (kept when the second lay within, else promoted), and representatives measured again\n"
           "  beside their class (its confirmations put it outside, or its one other link lay outside its sweep\n"
           "  twice; the time in the representative's), and the links of a class whose first measurements spread\n"
           "  (the second pass; its time in each link's). set-up: of the measured time, what lay outside the\n"
           "  records' points (buffers, binding, worker-count probes).\n";
    if (wall_s) {
        std::snprintf(line, sizeof line,
                      "  the run took %.0f s from start to end (meta.date_utc to meta.run.ended_utc, whole seconds),\n"
                      "  its records %.1f s: the rest was discovery, the plan and writing the file.\n",
                      *wall_s, rows.back().elapsed_s);
        out << line;
    }
    return out.str();
}

}  // namespace hwcomm::analyze
