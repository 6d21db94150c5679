#include "run/record_measure.hpp"

#include <algorithm>
#include <memory>

#include "core/error.hpp"
#include "methods/under_load.hpp"
#include "platform/clock.hpp"
#include "run/point_measure.hpp"
#include "run/progress.hpp"
#include "run/remeasure_rule.hpp"

namespace hwcomm {

namespace {

std::vector<const Vertex*> gpu_endpoints(const PlannedRecord& planned) {
    std::vector<const Vertex*> out;
    for (const Vertex* v : planned.vertices())
        if (v && v->kind == VertexKind::Gpu && std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
    return out;
}

// Every combination of the axes' values (one empty combination without axes).
std::vector<std::map<std::string, nlohmann::json>> axis_combinations(const std::vector<AxisSpec>& axes) {
    std::vector<std::map<std::string, nlohmann::json>> out{{}};
    for (const AxisSpec& axis : axes) {
        std::vector<std::map<std::string, nlohmann::json>> next;
        for (const auto& partial : out)
            for (const auto& value : axis.values) {
                auto c = partial;
                c[axis.name] = value;
                next.push_back(std::move(c));
            }
        out = std::move(next);
    }
    return out;
}

std::unique_ptr<TransferSession> prepare_session(const Graph& graph, const PlannedRecord& planned,
                                                 std::size_t max_size, const MethodOptions& options) {
    if (!planned.round.empty()) {
        std::vector<RoundLane> lanes;
        for (const PlannedRecord& lane : planned.round) lanes.push_back({lane.src, lane.dst});
        return planned.method->prepare_round(graph, lanes, planned.params, max_size, options);
    }
    if (planned.set) {
        const auto* group = dynamic_cast<const GroupCharacterizer*>(planned.method);
        if (!group) throw MeasurementError("internal: an endpoint set planned for a pair method");
        return group->prepare_set(graph, *planned.set, planned.params, max_size, options);
    }
    return planned.method->prepare(graph, *planned.src, *planned.dst, planned.params, max_size, options);
}

// --under-load: background lanes on the session (the record's own route may
// be one of them: a second copy on the same link is a load too).
void attach_under_load(const Graph& graph, const MethodOptions& options, TransferSession& session,
                       nlohmann::json& context) {
    if (options.under_load.empty()) return;
    if (options.load_routes.empty()) throw MeasurementError("internal: --under-load not resolved against the graph");
    std::vector<std::string> specs;
    for (const LoadSpec& spec : options.under_load) specs.push_back(spec.text);
    context["under_load"] = {{"specs", specs}, {"lanes", options.load_routes.size()}};
    session.attach_load(graph, options.load_routes, options);
}

// The record's lanes: the session's, or its own pair as the one lane.
std::vector<LaneSpec> record_lanes(const Record& r, const TransferSession& session) {
    std::vector<LaneSpec> lanes = session.lanes();
    for (LaneSpec& l : lanes)
        if (l.src.empty() && l.dst.empty()) {  // the record's own pair, unnamed by its session
            l.method = r.method;
            l.src = r.src;
            l.dst = r.dst;
            l.params = r.params;
        }
    if (!lanes.empty()) return lanes;
    LaneSpec one;
    one.label = r.src + "->" + r.dst;
    one.method = r.method;
    one.src = r.src;
    one.dst = r.dst;
    one.params = r.params;
    return {one};
}

void snapshot_device_state(const EngineHooks* hooks, const PlannedRecord& planned, const char* when,
                           nlohmann::json& state) {
    if (!hooks || !hooks->device_state) return;
    for (const Vertex* v : gpu_endpoints(planned)) {
        nlohmann::json s = hooks->device_state(*v);
        if (!s.is_null()) state[v->id][when] = std::move(s);
    }
}

// The record's error: the first one, or a lost context (it explains the rest).
void set_record_error(Record& r, const std::string& error, const std::string& error_type,
                      const std::optional<DeviceFailure>& failure, std::optional<DeviceFailure>& record_failure) {
    if (r.status == "ok" || (failure && failure->context_lost && !(record_failure && record_failure->context_lost))) {
        r.status = "error";
        r.error = error;
        r.error_type = error_type;
        if (failure) {
            r.context["device_error"] = device_failure_json(*failure);
            record_failure = failure;
        }
    }
}

// Progress counts a fixed number of units per record, whatever the ladder measures.
class UnitCounter {
public:
    UnitCounter(Progress* progress, std::size_t units) : progress_(progress), left_(units) {}
    ~UnitCounter() {
        if (progress_ && left_) progress_->skip_units(left_);
    }
    UnitCounter(const UnitCounter&) = delete;
    UnitCounter& operator=(const UnitCounter&) = delete;
    void start(const Record& r, std::uint64_t bytes) {
        if (progress_) progress_->start(r.method, r.src, r.dst, bytes);
    }
    void finish() {
        if (progress_ && left_) progress_->finish_unit(), --left_;
    }

private:
    Progress* progress_;
    std::size_t left_;
};

// Points sorted by axes, then size: a ladder measures its refinements late.
void sort_points(std::vector<Point>& points) {
    std::stable_sort(points.begin(), points.end(), [](const Point& a, const Point& b) {
        if (a.axes != b.axes) return nlohmann::json(a.axes).dump() < nlohmann::json(b.axes).dump();
        return a.bytes < b.bytes;
    });
}

}  // namespace

std::optional<Record> measure_sized_record(const Graph& graph, const PlannedRecord& planned, const SizePlan& plan,
                                           const RunOptions& options, Progress* progress, std::size_t progress_units,
                                           const EngineHooks* hooks, std::optional<DeviceFailure>& failure) {
    nlohmann::json device_state = nlohmann::json::object();
    snapshot_device_state(hooks, planned, "before", device_state);
    Record r;
    r.key = planned.key;
    r.method = planned.method->name();
    r.src = !planned.src_id.empty() ? planned.src_id : planned.src->id;
    r.dst = !planned.dst_id.empty() ? planned.dst_id : planned.dst->id;
    r.params = planned.params;
    if (planned.set && !planned.set->note.empty()) r.context["endpoint_set"] = planned.set->note;
    UnitCounter units(progress, progress_units);
    if (plan.sizes.empty()) {
        if (std::string why = no_size_applies(*planned.method, options); !why.empty()) {
            r.status = "skipped";  // nothing to measure here, and nothing failed
            r.error = std::move(why);
            return r;
        }
    }
    const std::size_t max_size = plan.prepare_bytes ? plan.prepare_bytes : (plan.sizes.empty() ? 0 : plan.sizes.back());
    const std::function<bool()> no_stop;
    const std::function<bool()>& should_stop = hooks ? hooks->should_stop : no_stop;
    // A ladder first prepared for where it is expected to stop (SizePlan::first_prepare_bytes).
    const std::size_t first_size =
        plan.ladder && plan.first_prepare_bytes && plan.first_prepare_bytes < max_size ? plan.first_prepare_bytes : max_size;
    std::unique_ptr<TransferSession> session;
    const auto prepare = [&](std::size_t bytes) {
        session.reset();  // the smaller session's buffers go before the larger ones are taken
        session = prepare_session(graph, planned, bytes, options.method);
        attach_under_load(graph, options.method, *session, r.context);
        r.context.update(session->context());
        r.lanes = record_lanes(r, *session);
    };
    // Where a record's time outside its points goes (the cost model's set-up; docs/schema.md).
    const double prepare_start = steady_seconds();
    try {
        prepare(first_size);
    } catch (const std::exception& e) {
        // Any failure to prepare is this record's, whatever its type: the run goes on.
        set_record_error(r, std::string("prepare: ") + e.what(), type_name_of(e), device_failure_of(e), failure);
        // The machine lacks what the record needs (huge pages, a unit of the GPU): skipped, not failed.
        if (dynamic_cast<const Unavailable*>(&e)) r.status = "skipped";
        if (!device_state.empty()) r.context["device_state"] = std::move(device_state);
        return r;
    }
    // The record's sizes, for the variant probes to snap to (a ladder's intermediates too).
    std::vector<std::uint64_t> all_sizes = plan.sizes;
    all_sizes.insert(all_sizes.end(), plan.intermediates.begin(), plan.intermediates.end());
    std::sort(all_sizes.begin(), all_sizes.end());
    all_sizes.erase(std::unique(all_sizes.begin(), all_sizes.end()), all_sizes.end());
    r.context["setup_s"] = {{"prepare", steady_seconds() - prepare_start}};
    const double probes_start = steady_seconds();
    const std::optional<VariantChoice> variants = choose_variants(
        *session, pick_variants(session->variants(), options.max_variants), all_sizes, options, should_stop);
    if (!variants) return std::nullopt;  // interrupted while probing: --resume measures it again
    if (variants->probed()) {
        r.context["variant_choice"] = variants->to_json();
        r.context["setup_s"]["variant_probes"] = steady_seconds() - probes_start;
    }
    const auto combos = axis_combinations(planned.method->axes());
    std::vector<std::uint64_t> skipped;
    const auto context_lost = [&failure] { return failure && failure->context_lost; };
    // One point; false when the run was asked to stop.
    const auto measure_one = [&](std::uint64_t bytes, const std::map<std::string, nlohmann::json>& axes,
                                 bool count) -> bool {
        if (count) units.start(r, bytes);
        std::string error_type;
        std::optional<DeviceFailure> point_failure;
        const std::vector<std::string> chosen = variants->for_size(bytes);
        std::optional<Point> point = measure_point(*session, bytes, chosen, options, should_stop, error_type, point_failure);
        if (!point) return false;
        // The one variant a record chose for this size is named though no others were measured.
        if (variants->probed() && chosen.size() == 1 && point->best_variant.empty()) point->best_variant = chosen.front();
        point->axes = axes;
        r.points.push_back(std::move(*point));
        if (count) units.finish();
        if (r.points.back().status != "ok")
            set_record_error(r, "size " + std::to_string(bytes) + ": " + r.points.back().error, error_type,
                             point_failure, failure);
        return true;
    };
    if (plan.ladder && combos.size() == 1) {
        try {
            session->set_axes(combos.front());
        } catch (const std::exception& e) {
            set_record_error(r, "axes: " + std::string(e.what()), type_name_of(e), device_failure_of(e), failure);
            return r;
        }
        // Prepared for first_size and not capped below it by free memory: it may grow to max_size.
        const bool may_grow = first_size < max_size && session->max_bytes() >= first_size;
        std::optional<std::uint64_t> grown_before;  // the size that made it grow (once)
        const std::uint64_t limit = may_grow ? max_size : session->max_bytes();
        std::vector<std::uint64_t> fitting, between;
        for (std::uint64_t b : plan.sizes) (b > limit ? skipped : fitting).push_back(b);
        for (std::uint64_t b : plan.intermediates)
            if (b <= limit) between.push_back(b);
        SizeLadder ladder(fitting, between, plan.ladder_options);
        while (const auto bytes = ladder.next()) {
            if (context_lost()) break;
            if (*bytes > session->max_bytes() && may_grow && !grown_before) {
                grown_before = *bytes;
                try {
                    const double grow_start = steady_seconds();
                    prepare(max_size);
                    r.context["setup_s"]["prepare_again"] = steady_seconds() - grow_start;
                    session->set_axes(combos.front());
                } catch (const std::exception& e) {
                    set_record_error(r, "prepare for " + std::to_string(max_size) + " bytes: " + e.what(),
                                     type_name_of(e), device_failure_of(e), failure);
                    break;
                }
                const std::vector<std::uint64_t> dropped = ladder.drop_above(session->max_bytes());
                skipped.insert(skipped.end(), dropped.begin(), dropped.end());
                continue;  // the ladder's next size may be smaller now
            }
            if (!measure_one(*bytes, combos.front(), true)) return std::nullopt;  // --resume measures it again
            const auto rule = r.context.contains("remeasured") ? std::nullopt : remeasure_rule(r.points);
            if (rule) {
                const Point first = std::move(r.points.back());
                r.points.pop_back();
                if (!measure_one(*bytes, combos.front(), false)) return std::nullopt;
                r.context["remeasured"].push_back({{"bytes", *bytes},
                                                   {"first_gbps", first.bandwidth_gbps},
                                                   {"first_ci95_half_width", first.stats.relative_ci_half_width()},
                                                   {"first_samples", first.samples_s.size()},
                                                   {"rule", *rule}});
            }
            const Point& p = r.points.back();
            ladder.add(*bytes, p.status == "ok" ? std::optional<double>(p.bandwidth_gbps) : std::nullopt,
                       p.stats.relative_ci_half_width(), p.elapsed_s);
        }
        r.context["ladder"] = ladder.summary();
        if (first_size < max_size) {
            r.context["prepared"] = {{"first_bytes", first_size}};
            if (grown_before) r.context["prepared"]["grown_before_bytes"] = *grown_before;
        }
        sort_points(r.points);
    } else {
        for (std::size_t c = 0; c < combos.size() && !context_lost(); ++c) {
            if (c > 0 && !session->axes_apply(combos[c])) continue;  // e.g. more load workers than the node has cores
            try {
                session->set_axes(combos[c]);
            } catch (const std::exception& e) {
                set_record_error(r, "axes: " + std::string(e.what()), type_name_of(e), device_failure_of(e), failure);
                break;
            }
            for (std::uint64_t bytes : plan.sizes) {
                if (context_lost()) break;
                if (bytes > session->max_bytes()) {
                    if (c == 0) skipped.push_back(bytes);
                    continue;
                }
                if (!measure_one(bytes, combos[c], c == 0)) return std::nullopt;
            }
        }
    }
    if (!plan.shared_from.empty()) r.context["ladder"] = {{"shared_with", plan.shared_from}, {"sizes", plan.sizes.size()}};
    if (context_lost()) {
        // Release what the lost context held now, before any other GPU call.
        session.reset();
        snapshot_device_state(hooks, planned, "after", device_state);
        if (!device_state.empty()) r.context["device_state"] = std::move(device_state);
        return r;
    }
    try {
        if (session) r.context.update(session->context());  // after measuring: binding failures found on the way
    } catch (const std::exception& e) {
        r.context["context_error"] = e.what();
    }
    if (!skipped.empty()) r.context["sizes_skipped_above_session_max"] = skipped;
    snapshot_device_state(hooks, planned, "after", device_state);
    if (!device_state.empty()) r.context["device_state"] = std::move(device_state);
    return r;
}

}  // namespace hwcomm
