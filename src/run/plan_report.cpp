// The plan for people (--plan) and programs (--plan --json, meta.plan).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "run/class_plan.hpp"
#include "run/run_planner.hpp"

namespace hwcomm {

namespace {

// Records as the file will hold them: a round's lanes each; covered members apart.
struct Counts {
    std::size_t records = 0, full = 0, confirmed = 0, deferred = 0, rounds = 0, covered = 0;
    double estimate_s = 0;
};

Counts count(const RunPlan& plan, const std::string& method = "") {
    Counts c;
    for (std::size_t i = 0; i < plan.records.size(); ++i) {
        const PlannedRecord& p = plan.records[i];
        if (!method.empty() && p.method->name() != method) continue;
        if (p.measured_as == "covered") {
            ++c.covered;
            continue;
        }
        const std::size_t n = std::max<std::size_t>(1, p.round.size());
        c.records += n;
        (p.measured_as == "confirmed" ? c.confirmed : c.full) += n;
        c.rounds += !p.round.empty();
        c.deferred += plan.deferred[i] ? n : 0;
        c.estimate_s += plan.estimate.record_s[i];
    }
    return c;
}

nlohmann::json member_json(const ClassMember& m) { return {m.src, m.dst}; }

nlohmann::json classes_json(const ClassMap& map) {
    nlohmann::json out = nlohmann::json::array();
    for (const LinkClass& c : map.classes) {
        nlohmann::json members = nlohmann::json::array();
        for (const ClassMember& m : c.members) members.push_back(member_json(m));
        out.push_back({{"id", c.id},
                       {"description", c.description},
                       {"signature", c.signature},
                       {"rates_known", c.rates_known},
                       {"representative", c.members.empty() ? nlohmann::json() : member_json(c.members.front())},
                       {"members", std::move(members)}});
    }
    return out;
}

std::vector<std::string> method_order(const RunPlan& plan) {
    std::vector<std::string> out;
    for (const PlannedRecord& p : plan.records)
        if (std::find(out.begin(), out.end(), p.method->name()) == out.end()) out.push_back(p.method->name());
    return out;
}

// The plan's methods the cost model has no constants of their own for:
// estimated with a family member's ("cpu-copy (cpu-read's)") or its fallback.
std::vector<std::string> methods_on_fallback(const RunPlan& plan) {
    std::vector<std::string> out;
    for (const std::string& m : method_order(plan)) {
        const auto it = plan.costs.methods.find(m);
        if (it == plan.costs.methods.end()) out.push_back(m + " (the fitted methods' median)");
        else if (!it->second.borrowed_from.empty()) out.push_back(m + " (" + it->second.borrowed_from + "'s)");
    }
    return out;
}

std::string seconds_text(double s) {
    char b[32];
    std::snprintf(b, sizeof b, s < 10 ? "%.1f s" : "%.0f s", s);
    return b;
}

}  // namespace

nlohmann::json run_plan_summary_json(const RunPlan& plan) {
    const Counts all = count(plan);
    nlohmann::json j{{"estimate_s", plan.estimate.total_s},
                     {"records", all.records},
                     {"full", all.full},
                     {"confirmed", all.confirmed},
                     {"rounds", all.rounds},
                     {"covered", all.covered},
                     {"deferred", all.deferred},
                     {"promotion_s", plan.estimate.promotion_s},
                     {"second_pass_link_s", plan.estimate.second_pass_link_s},
                     {"second_pass_most_s", plan.estimate.second_pass_most_s},
                     {"exhaustive", plan.options.plan.exhaustive},
                     {"classes", classes_json(plan.classes)},
                     {"cost_model", plan.costs.source},
                     {"notes", plan.notes}};
    nlohmann::json methods = nlohmann::json::array();
    for (const std::string& m : method_order(plan)) {
        const Counts c = count(plan, m);
        methods.push_back({{"method", m}, {"records", c.records}, {"full", c.full}, {"confirmed", c.confirmed},
                           {"rounds", c.rounds}, {"covered", c.covered}, {"deferred", c.deferred},
                           {"estimate_s", c.estimate_s}});
    }
    j["methods"] = std::move(methods);
    if (plan.budget) j["budget"] = budget_fit_to_json(*plan.budget);
    return j;
}

nlohmann::json run_plan_to_json(const RunPlan& plan) {
    nlohmann::json j = run_plan_summary_json(plan);
    j["schema"] = "hwcomm-plan";
    nlohmann::json records = nlohmann::json::array();
    for (std::size_t i = 0; i < plan.records.size(); ++i) {
        const PlannedRecord& p = plan.records[i];
        nlohmann::json r{{"key", p.key}, {"method", p.method->name()}, {"src", p.src_id}, {"dst", p.dst_id},
                         {"params", p.params}, {"measured_as", p.measured_as}, {"class", p.class_id},
                         {"estimate_s", plan.estimate.record_s[i]}, {"deferred", static_cast<bool>(plan.deferred[i])}};
        if (!p.representative_key.empty()) r["representative"] = p.representative_key;
        if (p.set && !p.set->shared_link.empty()) r["shared_link"] = p.set->shared_link;
        if (!p.round.empty()) {
            r["lanes"] = nlohmann::json::array();
            for (const PlannedRecord& lane : p.round)
                r["lanes"].push_back({{"key", lane.key}, {"src", lane.src_id}, {"dst", lane.dst_id}});
        }
        records.push_back(std::move(r));
    }
    j["plan"] = std::move(records);
    j["cost_model"] = cost_model_to_json(plan.costs);
    j["cost_model"]["fallback_methods"] = methods_on_fallback(plan);
    return j;
}

std::string format_run_plan(const RunPlan& plan) {
    std::ostringstream out;
    const Counts all = count(plan);
    out << "plan: " << all.records << " record(s): " << all.full << " full sweep(s), " << all.confirmed
        << " confirmation(s)" << (all.rounds ? " (" + std::to_string(all.rounds) + " round(s) of lanes)" : "")
        << (all.covered ? ", " + std::to_string(all.covered) + " covered" : "")
        << (all.deferred ? ", " + std::to_string(all.deferred) + " left for --resume" : "")
        << "; " << plan.classes.classes.size() << " link class(es)"
        << (plan.options.plan.exhaustive ? " (--exhaustive: every record a full sweep of the fixed sizes)" : "") << "\n";
    for (const std::string& note : plan.notes) out << "note: " << note << "\n";
    if (!plan.classes.classes.empty()) out << "\nclasses\n";
    for (const LinkClass& c : plan.classes.classes)
        out << "  " << c.id << "  " << c.description << ": " << c.members.size() << " member(s), representative "
            << (c.members.empty() ? "-" : c.members.front().src + "->" + c.members.front().dst)
            << (c.rates_known ? "" : " (link rates unknown: grouped by structure)") << "\n";
    out << "\nby method and class (full: the whole ladder; confirm: a few sizes against the class's full record)\n";
    for (const std::string& m : method_order(plan)) {
        const Counts c = count(plan, m);
        out << "  " << m << ": " << c.records << " record(s), " << c.full << " full, " << c.confirmed << " confirmed"
            << (c.rounds ? " in " + std::to_string(c.rounds) + " round(s)" : "")
            << (c.covered ? ", " + std::to_string(c.covered) + " covered" : "") << (c.deferred ? ", " + std::to_string(c.deferred) + " left for --resume" : "") << ", about "
            << seconds_text(c.estimate_s) << "\n";
        // One line per class and parameter set: its full records, then the members it confirms.
        std::map<std::string, std::vector<std::size_t>> lines;
        std::vector<std::string> order;
        for (std::size_t i = 0; i < plan.records.size(); ++i) {
            const PlannedRecord& p = plan.records[i];
            if (p.method->name() != m) continue;
            const std::string key = (p.class_id.empty() ? "-" : p.class_id) + " " + comparable_params(p);
            if (!lines.count(key)) order.push_back(key);
            lines[key].push_back(i);
        }
        for (const std::string& key : order) {
            std::string full, confirm, covered;
            for (std::size_t i : lines[key]) {
                const PlannedRecord& p = plan.records[i];
                std::string& list = p.measured_as == "confirmed" ? confirm : p.measured_as == "covered" ? covered : full;
                std::string lanes;
                for (const PlannedRecord& lane : p.round) lanes += (lanes.empty() ? "" : " ") + lane.src_id + "->" + lane.dst_id;
                list += " " + (p.round.empty() ? p.src_id + "->" + p.dst_id : "round(" + lanes + ")") +
                        (plan.deferred[i] ? "(deferred)" : "");
            }
            out << "    " << key << ":" << (full.empty() ? "" : " full" + full)
                << (confirm.empty() ? "" : "; confirm" + confirm) << (covered.empty() ? "" : "; covered" + covered)
                << "\n";
        }
    }
    if (plan.budget) {
        out << "\nbudget " << duration_text(plan.budget->budget_s) << ":";
        if (plan.budget->steps.empty()) out << " the plan fits as it is";
        out << "\n";
        for (const BudgetStep& s : plan.budget->steps)
            out << "  step " << s.name << ": " << s.description << " (" << seconds_text(s.before_s) << " -> "
                << seconds_text(s.after_s) << ")\n";
    }
    out << "\nestimate: about " << duration_text(plan.estimate.total_s) << " (" << seconds_text(plan.estimate.total_s)
        << ") for " << all.records - all.deferred << " record(s)";
    if (all.confirmed) out << "; each promotion (a confirmation outside its class's spread) adds about "
                           << seconds_text(plan.estimate.promotion_s);
    if (plan.estimate.second_pass_most_s > 0)
        out << "; a class measured twice (its kept links spread >5% at 64 MiB) adds about "
            << seconds_text(plan.estimate.second_pass_link_s) << " a link, "
            << seconds_text(plan.estimate.second_pass_most_s) << " were every class measured twice";
    out << "\ncost model: " << plan.costs.source << "\n";
    std::string fallback;
    for (const std::string& m : methods_on_fallback(plan)) fallback += (fallback.empty() ? "" : ", ") + m;
    if (!fallback.empty()) out << "no constants of their own, estimated with others': " << fallback << "\n";
    return out.str();
}

}  // namespace hwcomm
