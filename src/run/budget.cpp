#include "run/budget.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <functional>

#include "core/error.hpp"
#include "platform/clock.hpp"
#include "run/plan_estimate.hpp"
#include "run/size_plan.hpp"

namespace hwcomm {

double parse_duration(const std::string& text) {
    const std::string bad = "--budget '" + text + "': expected a duration such as 90s, 10m, 1.5h or 1h30m";
    // NUMBER[h|m|s] parts, the unit optional only for a lone number (seconds).
    const bool negative = !text.empty() && text[0] == '-';
    double total = 0;
    std::size_t i = negative ? 1 : 0, parts = 0;
    while (i < text.size()) {
        const std::size_t start = i;
        while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
        const std::string number = text.substr(start, i - start);
        if (number.empty() || number == "." || std::count(number.begin(), number.end(), '.') > 1) throw UsageError(bad);
        double unit = 1;
        if (i < text.size()) {
            const char u = text[i++];
            if (u == 'h') unit = 3600;
            else if (u == 'm') unit = 60;
            else if (u != 's') throw UsageError(bad);
        } else if (parts > 0) {
            throw UsageError(bad);  // "1h30": the unit of 30 is not said
        }
        const double v = std::strtod(number.c_str(), nullptr);
        if (!std::isfinite(v * unit)) throw UsageError(bad);
        total += v * unit;
        ++parts;
    }
    if (parts == 0) throw UsageError(bad);
    if (negative || !(total > 0) || !std::isfinite(total))
        throw UsageError("--budget '" + text + "' must be a positive duration");
    return total;
}

bool heavy_method(const std::string& m) { return plan_traits(m).heavy; }

std::string duration_text(double seconds) {
    const long s = std::lround(std::max(0.0, seconds));
    char b[64];
    if (s < 60) std::snprintf(b, sizeof b, "%ld s", s);
    else if (s < 3600) std::snprintf(b, sizeof b, "%ld min %02ld s", s / 60, s % 60);
    else std::snprintf(b, sizeof b, "%ld h %02ld min", s / 3600, (s % 3600) / 60);
    return b;
}

BudgetFit fit_budget(const std::vector<PlannedRecord>& plan, const RunOptions& options, const CostModel& costs,
                     double budget_s) {
    BudgetFit fit;
    fit.budget_s = budget_s;
    fit.options = options;
    fit.deferred.assign(plan.size(), false);
    const auto estimate = [&] { return estimate_plan(plan, fit.options, costs, fit.deferred).total_s; };
    const auto defer_confirmations = [&](const std::function<bool(const PlannedRecord&)>& which) {
        for (std::size_t i = 0; i < plan.size(); ++i)
            if (plan[i].measured_as == "confirmed" && which(plan[i])) fit.deferred[i] = true;
    };
    struct Step {
        const char* name;
        std::string description;
        std::function<void()> apply;
    };
    // The heavy methods of this plan, as their catalog rows say, named in the announcement.
    std::vector<std::string> heavy;
    for (const PlannedRecord& p : plan) {
        const std::string& name = p.method->name();
        if (heavy_method(name) && std::find(heavy.begin(), heavy.end(), name) == heavy.end()) heavy.push_back(name);
    }
    std::string heavy_names;
    for (const std::string& name : heavy) heavy_names += (heavy_names.empty() ? "" : ", ") + name;
    const std::string heavy_description =
        "confirmations of the heavy methods (" + (heavy_names.empty() ? std::string("none here") : heavy_names) +
        ") left for --resume";
    const std::vector<Step> steps{
        {"confirmation-sizes", "confirmations at the plateau size only",
         [&] { fit.options.plan.confirmation_sizes = 1; }},
        {"heavy-on-representatives", heavy_description,
         [&] { defer_confirmations([](const PlannedRecord& p) { return heavy_method(p.method->name()); }); }},
        {"coarse-ladders", "full sweeps climb every 2nd octave", [&] { fit.options.plan.ladder_octave_step = 2; }},
        {"confirmations-deferred", "every confirmation left for --resume",
         [&] { defer_confirmations([](const PlannedRecord&) { return true; }); }},
        {"short-sampling", "3 samples and 0.05 s per size (the --quick stopping rule)",
         [&] {
             fit.options.stopping.min_samples = std::min<std::size_t>(fit.options.stopping.min_samples, 3);
             fit.options.stopping.time_budget_s = std::min(fit.options.stopping.time_budget_s, 0.05);
         }},
    };
    double now = estimate();
    for (const Step& step : steps) {
        if (now <= budget_s) break;
        step.apply();
        const double after = estimate();
        fit.steps.push_back({step.name, step.description, now, after});
        now = after;
    }
    if (now > budget_s)
        throw UsageError("--budget " + duration_text(budget_s) + " cannot hold the minimum plan (every class " +
                         "representative once, coarse ladders, short sampling): it needs about " +
                         duration_text(now) + "; give a larger --budget or fewer methods (--filter)");
    fit.estimate_s = now;
    for (std::size_t i = 0; i < plan.size(); ++i)
        if (fit.deferred[i]) fit.deferred_records += written_keys(plan[i]).size();
    return fit;
}

nlohmann::json budget_fit_to_json(const BudgetFit& fit) {
    nlohmann::json steps = nlohmann::json::array();
    for (const BudgetStep& s : fit.steps)
        steps.push_back({{"step", s.name}, {"description", s.description}, {"estimate_before_s", s.before_s},
                         {"estimate_after_s", s.after_s}});
    return {{"budget_s", fit.budget_s}, {"steps", std::move(steps)}, {"estimate_s", fit.estimate_s},
            {"deferred_records", fit.deferred_records}};
}

BudgetClock::BudgetClock(double budget_s) : budget_s_(budget_s), started_(steady_seconds()) {}

double BudgetClock::elapsed_s() const { return steady_seconds() - started_; }

bool BudgetClock::admits(double expected_s) const { return elapsed_s() + expected_s <= budget_s_; }

bool BudgetClock::spent() const { return elapsed_s() > budget_s_ * kBudgetHardStop; }

}  // namespace hwcomm
