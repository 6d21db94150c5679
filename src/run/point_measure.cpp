#include "run/point_measure.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <set>
#include <typeinfo>

#include "measure/statistics.hpp"
#include "measure/stopping_rule.hpp"
#include "platform/clock.hpp"

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

}  // namespace

std::string type_name_of(const std::exception& e) {
    int status = 0;
    const char* mangled = typeid(e).name();
    std::unique_ptr<char, void (*)(void*)> name(abi::__cxa_demangle(mangled, nullptr, nullptr, &status), std::free);
    return status == 0 && name ? std::string(name.get()) : std::string(mangled);
}

std::optional<Point> measure_point(TransferSession& session, std::size_t bytes,
                                   const std::vector<std::string>& variants, const RunOptions& options,
                                   const std::function<bool()>& should_stop, std::string& error_type,
                                   std::optional<DeviceFailure>& failure) {
    const double started = steady_seconds();
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
    p.elapsed_s = steady_seconds() - started;  // the stats below are bookkeeping, not the point's cost
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

std::optional<VariantChoice> choose_variants(TransferSession& session, const std::vector<std::string>& variants,
                                             const std::vector<std::uint64_t>& sizes, const RunOptions& options,
                                             const std::function<bool()>& should_stop) {
    const auto probe_sizes = session.variant_probe_sizes();
    if (probe_sizes.empty()) return VariantChoice(variants);
    // A probe only ranks the variants (worker counts): a quarter of a point's
    // budget and at most 3 samples before the budget may stretch (at 1 GiB each
    // sample carries a fill and a check of the buffers); its median and CI stay
    // in the record with the choice.
    RunOptions probe_options = options;
    probe_options.stopping.time_budget_s = options.stopping.time_budget_s / 4;
    probe_options.stopping.min_samples = std::min<std::size_t>(options.stopping.min_samples, 3);
    return VariantChoice::probe(variants, probe_sizes, sizes, session.max_bytes(),
                                [&](std::uint64_t bytes, const std::string& v) -> std::optional<VariantProbe> {
                                    const VariantOutcome o = measure_variant(session, bytes, v, probe_options, should_stop);
                                    if (o.interrupted) return std::nullopt;
                                    const SampleStats& st = o.result.stats;
                                    return VariantProbe{.gbps = o.result.bandwidth_gbps,
                                                        .ci_half_width = st.relative_ci_half_width(),
                                                        .samples = st.n,
                                                        .error = o.error};
                                });
}

std::vector<std::string> pick_variants(const std::vector<std::string>& all, std::size_t max_variants) {
    if (max_variants == 0 || all.size() <= max_variants) return all;
    if (max_variants == 1) return {all.back()};
    std::set<std::size_t> idx;
    for (std::size_t i = 0; i < max_variants; ++i) idx.insert(i * (all.size() - 1) / (max_variants - 1));
    std::vector<std::string> out;
    for (std::size_t i : idx) out.push_back(all[i]);
    return out;
}

}  // namespace hwcomm
