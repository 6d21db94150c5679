// `model check` as text (a block per check, its worst cases and, for the
// held-out levels and members, a line per group) and as JSON
// (schema hwcomm.model-check/v1, docs/model.md).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "measure/byte_size.hpp"
#include "model/check.hpp"

namespace hwcomm::model {

namespace {

std::string stats_line(const ErrorSummary& s) {
    char buf[300];
    std::snprintf(buf, sizeof buf,
                  "%zu cases: median |error| %.2f%%, 90th percentile %.2f%%, max %.2f%%; within 5%%: %zu, "
                  "within 15%%: %zu",
                  s.cases.size(), s.median_abs * 100, s.p90_abs * 100, s.max_abs * 100, s.within_5pct,
                  s.within_15pct);
    std::string out = buf;
    if (s.with_interval)
        out += "; inside the predicted interval: " + std::to_string(s.inside_interval) + " of " +
               std::to_string(s.with_interval);
    return out;
}

std::string format_summary(const ErrorSummary& s, std::size_t worst) {
    std::string out = s.name + "\n";
    if (s.cases.empty()) {
        out += "  no case" + std::string(s.skipped ? "" : " in the input") + "\n";
    } else {
        out += "  " + stats_line(s) + "\n";
        for (const ErrorSummary& g : s.groups)
            out += "    " + g.name + ": " + (g.cases.empty() ? std::string("no case") : stats_line(g)) + "\n";
        std::vector<const CheckCase*> sorted;
        for (const CheckCase& c : s.cases) sorted.push_back(&c);
        std::sort(sorted.begin(), sorted.end(),
                  [](const CheckCase* x, const CheckCase* y) { return std::abs(x->error) > std::abs(y->error); });
        char buf[400];
        for (std::size_t i = 0; i < std::min(worst, sorted.size()); ++i) {
            const CheckCase& c = *sorted[i];
            std::snprintf(buf, sizeof buf, "  worst: %-60s %9s  %+7.2f%%  (predicted %.4g, measured %.4g)",
                          c.key.c_str(), format_size(c.bytes).c_str(), c.error * 100, c.predicted, c.measured);
            out += buf + (c.note.empty() ? "" : " " + c.note) + "\n";  // a note can name many records
        }
    }
    if (s.skipped) {
        out += "  not predictable: " + std::to_string(s.skipped) + "\n";
        for (const auto& w : s.skip_reasons) out += "    " + w + "\n";
    }
    return out;
}

nlohmann::json summary_json(const ErrorSummary& s, bool with_cases) {
    nlohmann::json j{{"what", s.name}, {"n", s.cases.size()}, {"median_abs_error", s.median_abs},
                     {"p90_abs_error", s.p90_abs}, {"max_abs_error", s.max_abs}, {"within_5pct", s.within_5pct},
                     {"within_15pct", s.within_15pct}, {"with_interval", s.with_interval},
                     {"inside_interval", s.inside_interval}, {"skipped", s.skipped}, {"skip_reasons", s.skip_reasons}};
    if (with_cases) {
        nlohmann::json cases = nlohmann::json::array();
        for (const CheckCase& c : s.cases) {
            cases.push_back({{"key", c.key}, {"bytes", c.bytes}, {"predicted", c.predicted}, {"measured", c.measured},
                             {"error", c.error}, {"note", c.note}});
            if (c.high > 0) cases.back()["interval"] = nlohmann::json::array({c.low, c.high});
        }
        j["cases"] = std::move(cases);
    }
    // A group's cases are the parent's: listed once, in the parent.
    if (!s.groups.empty()) {
        j["groups"] = nlohmann::json::array();
        for (const ErrorSummary& g : s.groups) j["groups"].push_back(summary_json(g, false));
    }
    return j;
}

}  // namespace

std::string format_check(const CheckReport& r, std::size_t worst) {
    std::string out;
    for (const ErrorSummary* s : {&r.sizes, &r.pairs, &r.lanes, &r.aggregates, &r.levels, &r.members})
        out += format_summary(*s, worst);
    if (!r.no_load_reason.empty()) out += "under load: " + r.no_load_reason + "\n";
    return out;
}

nlohmann::json check_to_json(const CheckReport& r) {
    nlohmann::json j{{"schema", "hwcomm.model-check/v1"}, {"min_bytes", r.min_bytes}};
    const char* names[] = {"leave_one_size_out", "leave_one_pair_out", "concurrency_lanes",
                           "concurrency_aggregates", "leave_one_level_out", "leave_one_member_out"};
    const ErrorSummary* sums[] = {&r.sizes, &r.pairs, &r.lanes, &r.aggregates, &r.levels, &r.members};
    for (int i = 0; i < 6; ++i) j[names[i]] = summary_json(*sums[i], true);
    j["under_load"] = r.no_load_reason.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.no_load_reason);
    return j;
}

}  // namespace hwcomm::model
