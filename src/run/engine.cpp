#include "run/engine.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <optional>
#include <set>
#include <typeinfo>

#include "core/error.hpp"
#include "measure/statistics.hpp"
#include "methods/under_load.hpp"
#include "platform/clock.hpp"
#include "run/device_loss.hpp"
#include "run/progress.hpp"
#include "run/variant_choice.hpp"

namespace hwcomm {

namespace {

struct VariantOutcome {
    VariantResult result;
    double bytes_per_rep = 0;
    std::map<std::string, double> extras;
    std::vector<LanePoint> lanes;
    std::map<std::string, Metric> metrics;
    std::string error;       // non-empty: measurement or verification failed
    std::string error_type;  // "verification", or the exception's type
    bool verified = false;   // every sample's destination held its batch's pattern
    bool interrupted = false;
    std::optional<DeviceFailure> device_failure;  // the error was a failed device call
};

// "std::runtime_error" for the record's error_type.
std::string type_name_of(const std::exception& e) {
    int status = 0;
    const char* mangled = typeid(e).name();
    std::unique_ptr<char, void (*)(void*)> name(abi::__cxa_demangle(mangled, nullptr, nullptr, &status), std::free);
    return status == 0 && name ? std::string(name.get()) : std::string(mangled);
}

// Per-lane statistics of a multi-lane measurement: each lane's seconds per
// transfer in every sample.
std::vector<LanePoint> lane_points(const std::vector<Sample>& samples) {
    std::vector<LanePoint> out;
    if (samples.empty()) return out;
    for (std::size_t i = 0; i < samples.front().lanes.size(); ++i) {
        LanePoint lp;
        lp.label = samples.front().lanes[i].label;
        lp.bytes_per_rep = samples.front().lanes[i].bytes_per_rep;
        for (const Sample& s : samples)
            if (i < s.lanes.size())
                lp.samples_s.push_back(s.lanes[i].seconds / static_cast<double>(std::max<std::size_t>(1, s.repetitions)));
        lp.stats = compute_stats(lp.samples_s);
        lp.bandwidth_gbps = lp.stats.median > 0 ? lp.bytes_per_rep / lp.stats.median / 1e9 : 0;
        out.push_back(std::move(lp));
    }
    return out;
}

// Per sample: untimed reset (fresh pattern, poisoned destination), the timed
// batch, then the check that the destination holds what this batch moved.
VariantOutcome measure_variant(TransferSession& session, std::size_t bytes, const std::string& variant,
                               const RunOptions& options, const std::function<bool()>& should_stop) {
    VariantOutcome out;
    out.result.variant = variant;
    try {
        for (std::size_t i = 0; i < options.warmup_runs; ++i) session.warmup(bytes, variant);
        StoppingRule rule(options.stopping);
        std::map<std::string, std::vector<double>> extras;
        std::map<std::string, std::vector<double>> metrics;
        std::map<std::string, std::string> metric_units;
        std::vector<Sample> samples;
        const double t0 = steady_seconds();
        std::optional<StopReason> reason;
        while (!reason) {
            if (should_stop && should_stop()) {
                out.interrupted = true;
                return out;
            }
            session.reset(bytes, variant);
            Sample s = session.measure(bytes, variant);
            if (const std::string wrong = session.verify(bytes, variant); !wrong.empty()) {
                out.error = "verification failed after sample " + std::to_string(samples.size() + 1) + ": " + wrong;
                out.error_type = "verification";
                return out;
            }
            const double reps = static_cast<double>(std::max<std::size_t>(1, s.repetitions));
            out.bytes_per_rep = s.bytes_per_rep > 0 ? s.bytes_per_rep : static_cast<double>(bytes);
            for (const auto& [name, value] : s.extras) extras[name].push_back(value);
            for (const auto& [name, m] : s.metrics) {
                metrics[name].push_back(m.value);
                metric_units[name] = m.unit;
            }
            reason = rule.add(s.seconds / reps, steady_seconds() - t0);
            samples.push_back(std::move(s));
        }
        out.result.samples_s = rule.samples();
        out.result.stop_reason = to_string(*reason);
        out.result.stats = compute_stats(out.result.samples_s);
        out.result.bandwidth_gbps =
            out.result.stats.median > 0 ? out.bytes_per_rep / out.result.stats.median / 1e9 : 0;
        for (const auto& [name, values] : extras) out.extras[name] = compute_stats(values).median;
        for (const auto& [name, values] : metrics) out.metrics[name] = {compute_stats(values).median, metric_units[name]};
        out.lanes = lane_points(samples);
        out.verified = true;
    } catch (const std::exception& e) {
        out.error = e.what();
        out.error_type = type_name_of(e);
        out.device_failure = device_failure_of(e);
    }
    return out;
}

// nullopt when the run was asked to stop before the point was complete.
// `failure`: the device failure of the point's error, if it was one.
std::optional<Point> measure_point(TransferSession& session, std::size_t bytes,
                                   const std::vector<std::string>& variants, const RunOptions& options,
                                   const std::function<bool()>& should_stop, std::string& error_type,
                                   std::optional<DeviceFailure>& failure) {
    Point p;
    p.bytes = bytes;
    std::vector<VariantOutcome> outcomes;
    for (const auto& v : variants) {
        outcomes.push_back(measure_variant(session, bytes, v, options, should_stop));
        if (outcomes.back().interrupted) return std::nullopt;
        // A lost context fails every later call: no point in the other variants.
        if (outcomes.back().device_failure && outcomes.back().device_failure->context_lost) break;
    }
    const VariantOutcome* best = nullptr;
    for (const auto& o : outcomes) {
        if (!o.error.empty()) {
            if (p.error.empty() || (o.device_failure && o.device_failure->context_lost)) {
                p.error = (o.result.variant.empty() ? "" : "variant " + o.result.variant + ": ") + o.error;
                error_type = o.error_type;
                failure = o.device_failure;
            }
            continue;
        }
        if (!best || o.result.bandwidth_gbps > best->result.bandwidth_gbps) best = &o;
    }
    p.status = p.error.empty() ? "ok" : "error";
    p.verified = p.error.empty() && best && best->verified;
    if (!best) return p;
    p.stop_reason = best->result.stop_reason;
    p.samples_s = best->result.samples_s;
    p.stats = best->result.stats;
    p.bytes_per_rep = best->bytes_per_rep;
    p.bandwidth_gbps = best->result.bandwidth_gbps;
    p.peak_bandwidth_gbps = p.stats.min > 0 ? p.bytes_per_rep / p.stats.min / 1e9 : 0;
    p.extras = best->extras;
    p.lanes = best->lanes;
    p.metrics = best->metrics;
    if (variants.size() > 1) {
        p.best_variant = best->result.variant;
        for (const auto& o : outcomes)
            if (o.error.empty()) p.variants.push_back(o.result);
    }
    return p;
}

// The session's variants, chosen once per record when it names probe sizes.
std::optional<VariantChoice> choose_variants(TransferSession& session, const std::vector<std::string>& variants,
                                             const std::vector<std::uint64_t>& sizes, const RunOptions& options,
                                             const std::function<bool()>& should_stop) {
    const auto probe_sizes = session.variant_probe_sizes();
    if (probe_sizes.empty()) return VariantChoice(variants);
    return VariantChoice::probe(variants, probe_sizes, sizes, session.max_bytes(),
                                [&](std::uint64_t bytes, const std::string& v) -> std::optional<VariantProbe> {
                                    const VariantOutcome o = measure_variant(session, bytes, v, options, should_stop);
                                    if (o.interrupted) return std::nullopt;
                                    const SampleStats& st = o.result.stats;
                                    return VariantProbe{.gbps = o.result.bandwidth_gbps,
                                                        .ci_half_width = st.median > 0 ? (st.ci95_high - st.ci95_low) / 2 / st.median : 0,
                                                        .samples = st.n,
                                                        .error = o.error};
                                });
}

}  // namespace

std::vector<std::string> pick_variants(const std::vector<std::string>& all, std::size_t max_variants) {
    if (max_variants == 0 || all.size() <= max_variants) return all;
    if (max_variants == 1) return {all.back()};
    std::set<std::size_t> idx;
    for (std::size_t i = 0; i < max_variants; ++i) idx.insert(i * (all.size() - 1) / (max_variants - 1));
    std::vector<std::string> out;
    for (std::size_t i : idx) out.push_back(all[i]);
    return out;
}

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

// measure_record, also saying which device failure (if any) the record met:
// a lost context stops the record at once, keeping the points measured before.
std::optional<Record> measure_record_noting_failure(const Graph& graph, const PlannedRecord& planned,
                                                    const RunOptions& options, Progress* progress,
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
    const std::size_t max_size = options.sizes.empty() ? 0 : options.sizes.back();
    const std::function<bool()> no_stop;
    const std::function<bool()>& should_stop = hooks ? hooks->should_stop : no_stop;
    std::unique_ptr<TransferSession> session;
    try {
        session = prepare_session(graph, planned, max_size, options.method);
        attach_under_load(graph, options.method, *session, r.context);
        r.context.update(session->context());
        r.lanes = record_lanes(r, *session);
    } catch (const std::exception& e) {
        // Any failure to prepare is this record's, whatever its type: the run goes on.
        set_record_error(r, std::string("prepare: ") + e.what(), type_name_of(e), device_failure_of(e), failure);
        if (!device_state.empty()) r.context["device_state"] = std::move(device_state);
        if (progress) progress->skip_units(options.sizes.size());
        return r;
    }
    const std::vector<std::uint64_t> sizes = planned.method->size_policy().apply(options.sizes);
    const std::optional<VariantChoice> variants =
        choose_variants(*session, pick_variants(session->variants(), options.max_variants), sizes, options, should_stop);
    if (!variants) return std::nullopt;  // interrupted while probing
    if (variants->probed()) r.context["variant_choice"] = variants->to_json();
    const auto combos = axis_combinations(planned.method->axes());
    std::vector<std::uint64_t> skipped;
    const auto context_lost = [&failure] { return failure && failure->context_lost; };
    for (std::size_t c = 0; c < combos.size() && !context_lost(); ++c) {
        const bool count_progress = progress && c == 0;  // progress counts sizes once per record
        if (c > 0 && !session->axes_apply(combos[c])) continue;  // e.g. more load workers than the node has cores
        try {
            session->set_axes(combos[c]);
        } catch (const std::exception& e) {
            set_record_error(r, "axes: " + std::string(e.what()), type_name_of(e), device_failure_of(e), failure);
            break;
        }
        for (std::uint64_t bytes : sizes) {
            if (context_lost()) {
                if (count_progress) progress->finish_unit();
                continue;
            }
            if (bytes > session->max_bytes()) {
                if (c == 0) skipped.push_back(bytes);
                if (count_progress) progress->finish_unit();
                continue;
            }
            if (count_progress) progress->start(r.method, r.src, r.dst, bytes);
            std::string error_type;
            std::optional<DeviceFailure> point_failure;
            const std::vector<std::string> chosen = variants->for_size(bytes);
            std::optional<Point> point =
                measure_point(*session, bytes, chosen, options, should_stop, error_type, point_failure);
            if (!point) return std::nullopt;  // interrupted: the record is measured again on --resume
            if (variants->probed() && chosen.size() == 1 && point->best_variant.empty()) point->best_variant = chosen.front();
            point->axes = combos[c];
            r.points.push_back(std::move(*point));
            if (count_progress) progress->finish_unit();
            if (r.points.back().status != "ok")
                set_record_error(r, "size " + std::to_string(bytes) + ": " + r.points.back().error, error_type,
                                 point_failure, failure);
        }
    }
    if (progress && sizes.size() < options.sizes.size()) progress->skip_units(options.sizes.size() - sizes.size());
    if (context_lost()) {
        // Release what the lost context held now, before any other GPU call.
        session.reset();
        snapshot_device_state(hooks, planned, "after", device_state);
        if (!device_state.empty()) r.context["device_state"] = std::move(device_state);
        return r;
    }
    try {
        r.context.update(session->context());  // after measuring: binding failures found on the way
    } catch (const std::exception& e) {
        r.context["context_error"] = e.what();
    }
    if (!skipped.empty()) r.context["sizes_skipped_above_session_max"] = skipped;
    snapshot_device_state(hooks, planned, "after", device_state);
    if (!device_state.empty()) r.context["device_state"] = std::move(device_state);
    return r;
}

}  // namespace

std::optional<Record> measure_record(const Graph& graph, const PlannedRecord& planned, const RunOptions& options,
                                     Progress* progress, const EngineHooks* hooks) {
    std::optional<DeviceFailure> failure;
    return measure_record_noting_failure(graph, planned, options, progress, hooks, failure);
}

std::size_t run_plan(const Graph& graph, const std::vector<PlannedRecord>& plan, const RunOptions& options,
                     ResultsFile& results, const EngineHooks& hooks) {
    std::vector<const PlannedRecord*> todo;
    for (const auto& p : plan) {
        const Record* done = results.find(p.key);
        if (!done || is_not_measured(*done)) todo.push_back(&p);
    }
    Progress progress(hooks.progress, todo.size() * options.sizes.size());
    std::size_t measured = 0;
    std::optional<DeviceLoss> loss;  // set once: the sticky failure that ended the GPU part
    for (std::size_t i = 0; i < todo.size(); ++i) {
        const PlannedRecord* p = todo[i];
        if (loss && needs_gpu(*p)) {
            progress.skip_units(options.sizes.size());
            continue;  // kept as "not measured" when the context was lost
        }
        if (hooks.stop_after_records && measured >= hooks.stop_after_records) break;
        if (hooks.should_stop && hooks.should_stop()) break;
        std::optional<DeviceFailure> failure;
        const auto started = std::chrono::steady_clock::now();
        std::optional<Record> record = measure_record_noting_failure(graph, *p, options, &progress, &hooks, failure);
        if (!record) break;
        // The record's whole cost (set-up, warm-ups, checks, samples): what a run's length is made of.
        record->context["elapsed_s"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        store_record(results, std::move(*record));
        ++measured;
        if (hooks.on_record) hooks.on_record(results.records.back());
        if (!loss && failure && failure->context_lost) {
            loss = DeviceLoss{*failure, p->key};
            const std::vector<const PlannedRecord*> rest(todo.begin() + static_cast<std::ptrdiff_t>(i) + 1, todo.end());
            const std::size_t n = keep_gpu_records_not_measured(rest, *loss, results);
            if (hooks.on_device_lost) hooks.on_device_lost(describe_loss(*loss, n));
        }
    }
    return measured;
}

}  // namespace hwcomm
