#include "run/engine.hpp"

#include <algorithm>
#include <set>

#include "core/error.hpp"
#include "measure/statistics.hpp"
#include "platform/clock.hpp"
#include "run/progress.hpp"

namespace hwcomm {

namespace {

struct VariantOutcome {
    VariantResult result;
    double bytes_per_rep = 0;
    std::map<std::string, double> extras;
    std::string error;  // non-empty: measurement or verification failed
};

VariantOutcome measure_variant(TransferSession& session, std::size_t bytes, const std::string& variant,
                               const RunOptions& options) {
    VariantOutcome out;
    out.result.variant = variant;
    try {
        for (std::size_t i = 0; i < options.warmup_runs; ++i) session.warmup(bytes, variant);
        StoppingRule rule(options.stopping);
        std::map<std::string, std::vector<double>> extras;
        const double t0 = steady_seconds();
        std::optional<StopReason> reason;
        while (!reason) {
            const Sample s = session.measure(bytes, variant);
            const double reps = static_cast<double>(std::max<std::size_t>(1, s.repetitions));
            out.bytes_per_rep = s.bytes_per_rep > 0 ? s.bytes_per_rep : static_cast<double>(bytes);
            for (const auto& [name, value] : s.extras) extras[name].push_back(value);
            reason = rule.add(s.seconds / reps, steady_seconds() - t0);
        }
        out.result.samples_s = rule.samples();
        out.result.stop_reason = to_string(*reason);
        out.result.stats = compute_stats(out.result.samples_s);
        out.result.bandwidth_gbps =
            out.result.stats.median > 0 ? out.bytes_per_rep / out.result.stats.median / 1e9 : 0;
        for (const auto& [name, values] : extras) out.extras[name] = compute_stats(values).median;
        const std::string wrong = session.verify(bytes, variant);
        if (!wrong.empty()) out.error = "verification failed: " + wrong;
    } catch (const MeasurementError& e) {
        out.error = e.what();
    }
    return out;
}

Point measure_point(TransferSession& session, std::size_t bytes, const std::vector<std::string>& variants,
                    const RunOptions& options) {
    Point p;
    p.bytes = bytes;
    std::vector<VariantOutcome> outcomes;
    for (const auto& v : variants) outcomes.push_back(measure_variant(session, bytes, v, options));
    const VariantOutcome* best = nullptr;
    for (const auto& o : outcomes) {
        if (!o.error.empty()) {
            if (p.error.empty()) p.error = (o.result.variant.empty() ? "" : "variant " + o.result.variant + ": ") + o.error;
            continue;
        }
        if (!best || o.result.bandwidth_gbps > best->result.bandwidth_gbps) best = &o;
    }
    p.status = p.error.empty() ? "ok" : "error";
    p.verified = p.error.empty() && best;
    if (!best) return p;
    p.stop_reason = best->result.stop_reason;
    p.samples_s = best->result.samples_s;
    p.stats = best->result.stats;
    p.bytes_per_rep = best->bytes_per_rep;
    p.bandwidth_gbps = best->result.bandwidth_gbps;
    p.peak_bandwidth_gbps = p.stats.min > 0 ? p.bytes_per_rep / p.stats.min / 1e9 : 0;
    p.extras = best->extras;
    if (variants.size() > 1) {
        p.best_variant = best->result.variant;
        for (const auto& o : outcomes)
            if (o.error.empty()) p.variants.push_back(o.result);
    }
    return p;
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
    for (const Vertex* v : {planned.src, planned.dst})
        if (v->kind == VertexKind::Gpu && (out.empty() || out.front() != v)) out.push_back(v);
    return out;
}

void snapshot_device_state(const EngineHooks* hooks, const PlannedRecord& planned, const char* when,
                           nlohmann::json& state) {
    if (!hooks || !hooks->device_state) return;
    for (const Vertex* v : gpu_endpoints(planned)) {
        nlohmann::json s = hooks->device_state(*v);
        if (!s.is_null()) state[v->id][when] = std::move(s);
    }
}

}  // namespace

Record measure_record(const Graph& graph, const PlannedRecord& planned, const RunOptions& options, Progress* progress,
                      const EngineHooks* hooks) {
    nlohmann::json device_state = nlohmann::json::object();
    snapshot_device_state(hooks, planned, "before", device_state);
    Record r;
    r.key = planned.key;
    r.method = planned.method->name();
    r.src = planned.src->id;
    r.dst = planned.dst->id;
    r.params = planned.params;
    const std::size_t max_size = options.sizes.empty() ? 0 : options.sizes.back();
    std::unique_ptr<TransferSession> session;
    try {
        session = planned.method->prepare(graph, *planned.src, *planned.dst, planned.params, max_size, options.method);
        r.context = session->context();
    } catch (const MeasurementError& e) {
        r.status = "error";
        r.error = std::string("prepare: ") + e.what();
        if (!device_state.empty()) r.context["device_state"] = std::move(device_state);
        if (progress) progress->skip_units(options.sizes.size());
        return r;
    }
    const auto variants = pick_variants(session->variants(), options.max_variants);
    std::vector<std::uint64_t> skipped;
    for (std::uint64_t bytes : options.sizes) {
        if (bytes > session->max_bytes()) {
            skipped.push_back(bytes);
            if (progress) progress->finish_unit();
            continue;
        }
        if (progress) progress->start(r.method, r.src, r.dst, bytes);
        r.points.push_back(measure_point(*session, bytes, variants, options));
        if (progress) progress->finish_unit();
        if (r.points.back().status != "ok" && r.status == "ok") {
            r.status = "error";
            r.error = "size " + std::to_string(bytes) + ": " + r.points.back().error;
        }
    }
    r.context = session->context();  // after measuring: binding failures found on the way
    if (!skipped.empty()) r.context["sizes_skipped_above_session_max"] = skipped;
    snapshot_device_state(hooks, planned, "after", device_state);
    if (!device_state.empty()) r.context["device_state"] = std::move(device_state);
    return r;
}

std::size_t run_plan(const Graph& graph, const std::vector<PlannedRecord>& plan, const RunOptions& options,
                     ResultsFile& results, const EngineHooks& hooks) {
    std::vector<const PlannedRecord*> todo;
    for (const auto& p : plan)
        if (!results.find(p.key)) todo.push_back(&p);
    Progress progress(hooks.progress, todo.size() * options.sizes.size());
    std::size_t measured = 0;
    for (const PlannedRecord* p : todo) {
        if (hooks.stop_after_records && measured >= hooks.stop_after_records) break;
        if (hooks.should_stop && hooks.should_stop()) break;
        results.records.push_back(measure_record(graph, *p, options, &progress, &hooks));
        ++measured;
        if (hooks.on_record) hooks.on_record(results.records.back());
    }
    return measured;
}

}  // namespace hwcomm
