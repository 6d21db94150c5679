#include "run/planned_measure.hpp"

#include <algorithm>
#include <chrono>

#include "run/confirmation.hpp"
#include "run/engine.hpp"
#include "run/progress.hpp"
#include "run/record_measure.hpp"
#include "run/size_plan.hpp"

namespace hwcomm {

std::optional<Record> measure_record(const Graph& graph, const PlannedRecord& planned, const RunOptions& options,
                                     Progress* progress, const EngineHooks* hooks) {
    std::optional<DeviceFailure> failure;
    SizePlan plan = own_size_plan(planned.sizes);  // a --transfers set of one size
    if (planned.sizes.empty()) {
        plan.sizes = fixed_sizes(*planned.method, options);
        plan.prepare_bytes = options.sizes.empty() ? 0 : options.sizes.back();
    }
    return measure_sized_record(graph, planned, plan, options, progress, options.sizes.size(), hooks, failure);
}

bool has_ok_point(const Record& r) {
    return std::any_of(r.points.begin(), r.points.end(),
                       [](const Point& p) { return p.status == "ok" && p.bandwidth_gbps > 0; });
}

namespace {

// The full sweep; a record whose ladder is shared measures the sizes the
// group's first record chose.
SizePlan full_plan(const PlannedRecord& planned, const RunOptions& options, const ResultsFile& results) {
    if (!planned.sizes.empty()) return own_size_plan(planned.sizes);  // a --transfers set of one size
    SizePlan plan = full_size_plan(*planned.method, options);
    if (!plan.ladder || plan_traits(planned.method->name()).shared_ladder_params.empty()) return plan;
    const std::string group = ladder_group_key(planned.method->name(), planned.src_id, planned.dst_id, planned.params);
    for (const Record& r : results.records) {
        if (r.method != planned.method->name() || r.key == planned.key || !has_ok_point(r)) continue;
        if (ladder_group_key(r.method, r.src, r.dst, r.params) != group) continue;
        const auto ladder = r.context.find("ladder");
        if (ladder == r.context.end() || !ladder->is_object() || ladder->contains("shared_with")) continue;
        plan.ladder = false;
        plan.sizes.clear();
        for (const Point& p : r.points)
            if (p.status == "ok") plan.sizes.push_back(p.bytes);
        std::sort(plan.sizes.begin(), plan.sizes.end());
        plan.shared_from = r.key;
        break;
    }
    return plan;
}

// The first planned size at or above where the ladder is expected to stop
// (0: none below the largest, which is prepared for at once).
std::uint64_t first_prepare_bytes(const SizePlan& plan, std::uint64_t expected_stop) {
    if (!plan.ladder || expected_stop == 0 || plan.sizes.empty()) return 0;
    const auto at = std::lower_bound(plan.sizes.begin(), plan.sizes.end(), expected_stop);
    return at == plan.sizes.end() || *at >= plan.prepare_bytes ? 0 : *at;
}

std::optional<Record> measure_full(const Graph& graph, const PlannedRecord& planned, const RunOptions& options,
                                   const ResultsFile& results, Progress* progress, std::size_t units,
                                   const EngineHooks* hooks, std::optional<DeviceFailure>& failure) {
    SizePlan plan = full_plan(planned, options, results);
    if (hooks && hooks->expected_ladder_stop)
        plan.first_prepare_bytes = first_prepare_bytes(plan, hooks->expected_ladder_stop(planned));
    return measure_sized_record(graph, planned, plan, options, progress, units, hooks, failure);
}

std::optional<Record> promoted(std::optional<Record> full, const std::string& representative, const std::string& reason,
                               const nlohmann::json& compared) {
    if (!full) return full;
    full->measured_as = "promoted";
    full->context["promotion"] = {{"representative", representative}, {"reason", reason}, {"compared", compared}};
    return full;
}

}  // namespace

std::optional<Record> measure_as_planned(const Graph& graph, const PlannedRecord& planned, const RunOptions& options,
                                         const ResultsFile& results, Progress* progress, const EngineHooks* hooks,
                                         std::optional<DeviceFailure>& failure) {
    const std::size_t units = options.sizes.size();
    if (planned.measured_as != "confirmed") {
        auto full = measure_full(graph, planned, options, results, progress, units, hooks, failure);
        if (full) full->measured_as = "full";
        return full;
    }
    const Record* rep = results.find(planned.representative_key);
    if (!rep || !has_ok_point(*rep)) {
        const std::string why = "representative " + planned.representative_key +
                                (rep ? " failed: " + rep->error : std::string(" not measured"));
        return promoted(measure_full(graph, planned, options, results, progress, units, hooks, failure),
                        planned.representative_key, why, nlohmann::json::array());
    }
    SizePlan plan;
    plan.sizes = confirmation_sizes(*rep, options.plan.confirmation_sizes);
    plan.prepare_bytes = plan.sizes.back();  // has_ok_point: never empty
    std::optional<Record> record =
        measure_sized_record(graph, planned, plan, options, progress, units / 2, hooks, failure);
    if (record) record->measured_as = "confirmed";  // judged with its class (judge_class), then kept or promoted
    return record;
}

bool awaits_judgement(const PlannedRecord& planned, const Record& record) {
    return planned.measured_as == "confirmed" && record.measured_as == "confirmed";
}

void keep_confirmed(Record& confirmation, const std::string& representative, const nlohmann::json& compared,
                    Progress* progress, const RunOptions& options) {
    confirmation.context["confirmation"] = {{"representative", representative}, {"compared", compared}};
    if (progress) progress->skip_units(options.sizes.size() - options.sizes.size() / 2);  // the promotion's share
}

void keep_measured_twice(Record& again, const std::string& representative, const nlohmann::json& first_measurement,
                         const ConfirmationVerdict& second, const std::optional<ConfirmationVerdict>& beside,
                         Progress* progress, const RunOptions& options) {
    keep_confirmed(again, representative, beside ? beside->compared : second.compared, progress, options);
    nlohmann::json& confirmation = again.context["confirmation"];
    confirmation["first_measurement"] = first_measurement;
    if (beside)
        confirmation["beside_representative_again"] = "outside the representative's sweep twice (" + second.reason +
                                                      "), within it measured again right after: the sweep ran at "
                                                      "another time";
    else if (second.promote)
        confirmation["outside_again_elsewhere"] =
            second.reason + " (never at a size where the first was, on the same side: noise)";
}

std::optional<Record> measure_promoted(const Graph& graph, const PlannedRecord& planned, const RunOptions& options,
                                       const ResultsFile& results, Progress* progress, const EngineHooks* hooks,
                                       std::optional<DeviceFailure>& failure, const ConfirmationVerdict& verdict) {
    const std::size_t units = options.sizes.size();
    std::optional<Record> full =
        promoted(measure_full(graph, planned, options, results, progress, units - units / 2, hooks, failure),
                 planned.representative_key, verdict.reason, verdict.compared);
    if (full && !verdict.first_measurement.is_null()) {
        full->context["promotion"]["measured_twice"] = true;
        full->context["promotion"]["first_measurement"] = verdict.first_measurement;
    }
    return full;
}

std::optional<std::vector<nlohmann::json>> measure_second_pass(const Graph& graph,
                                                               const std::vector<const PlannedRecord*>& links,
                                                               const SecondPass& pass, const RunOptions& options,
                                                               const ResultsFile& results, const EngineHooks* hooks,
                                                               std::optional<DeviceFailure>& failure) {
    std::vector<nlohmann::json> entries;
    for (std::size_t k = 0; k < links.size(); ++k) {
        if (hooks && hooks->should_stop && hooks->should_stop()) return std::nullopt;
        PlannedRecord once = *links[k];
        once.measured_as = "full";  // its own sizes: the one size, whatever its class
        once.sizes = {pass.bytes};
        const auto started = std::chrono::steady_clock::now();
        std::optional<Record> again = measure_full(graph, once, options, results, nullptr, 0, hooks, failure);
        if (!again) return std::nullopt;
        entries.push_back(second_pass_entry(
            pass, k, *again, std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count()));
        if (failure && failure->context_lost) break;
    }
    return entries;
}

std::optional<SecondPass> second_pass_of(const ResultsFile& results, std::vector<const PlannedRecord*>& links) {
    std::vector<const PlannedRecord*> kept;
    std::vector<const Record*> records;
    for (std::size_t k = 0; k < links.size(); ++k) {
        const Record* r = results.find(links[k]->key);
        if (r && (k == 0 || r->measured_as == "confirmed")) kept.push_back(links[k]), records.push_back(r);
        else if (k == 0) return std::nullopt;  // no representative to measure beside
    }
    links = std::move(kept);
    return plan_second_pass(records);
}

void keep_second_pass(ResultsFile& results, const std::vector<const PlannedRecord*>& links,
                      const std::vector<nlohmann::json>& entries) {
    for (std::size_t k = 0; k < entries.size() && k < links.size(); ++k)
        for (Record& r : results.records)
            if (r.key == links[k]->key) {
                r.context["second_pass"] = entries[k];
                r.context["elapsed_s"] = r.context.value("elapsed_s", 0.0) + entries[k].value("elapsed_s", 0.0);
            }
}

}  // namespace hwcomm
