#include "run/run_options.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/error.hpp"
#include "methods/under_load.hpp"
#include "methods/transfers/transfer_set.hpp"

namespace hwcomm {

RunOptions default_run_options() {
    RunOptions o;
    // Sized so a default run over the 4 CPU records of a one-node, 2-core
    // machine ends within 2 minutes (docs/benchmarks.md).
    o.stopping.time_budget_s = 0.2;
    o.stopping.noise_limit_after = 10;
    return o;
}

RunOptions quick_run_options() {
    RunOptions o;
    o.quick = true;
    o.sweep.min_bytes = 4096;
    o.sweep.max_bytes = std::uint64_t{64} << 20;
    o.sweep.octave_step = 2;
    o.stopping.min_samples = 3;
    o.stopping.time_budget_s = 0.05;
    o.stopping.noise_limit_after = 10;
    o.max_variants = 3;
    return o;
}

namespace {

std::vector<std::string> spec_texts(const std::vector<LoadSpec>& specs) {
    std::vector<std::string> out;
    for (const LoadSpec& s : specs) out.push_back(s.text);
    return out;
}

}  // namespace

nlohmann::json run_options_to_json(const RunOptions& o) {
    nlohmann::json j{{"min_size", o.sweep.min_bytes},
            {"max_size", o.sweep.max_bytes},
            {"points_per_octave", o.sweep.points_per_octave},
            {"octave_step", o.sweep.octave_step},
            {"sizes", o.sizes},
            {"min_samples", o.stopping.min_samples},
            {"max_noise", o.stopping.max_noise},
            {"time_budget_s", o.stopping.time_budget_s},
            {"max_samples", o.stopping.max_samples},
            {"min_samples_budget_factor", o.stopping.min_samples_budget_factor},
            {"noise_limit_after", o.stopping.noise_limit_after},
            {"noise_limit_margin", o.stopping.noise_limit_margin},
            {"warmup_runs", o.warmup_runs},
            {"max_variants", o.max_variants},
            {"max_workers", o.method.max_workers},
            {"timing", to_string(o.method.timing)},
            {"pool_half_gpu_memory", o.method.pool_half_gpu_memory},
            {"quick", o.quick},
            {"filters", o.filters},
            {"method_options", o.method.values.all()},
            {"under_load", spec_texts(o.method.under_load)},
            {"plan",
             {{"exhaustive", o.plan.exhaustive},
              {"confirmation_sizes", o.plan.confirmation_sizes},
              {"ladder_octave_step", o.plan.ladder_octave_step}}}};
    // --transfers: the sets themselves, so a resume measures the same ones whatever became of the file.
    if (!o.method.transfer_sets.empty())
        j["transfers"] = {{"source", o.method.transfer_sets_source}, {"sets", o.method.transfer_sets}};
    return j;
}

namespace {

// Typed reads that refuse what nlohmann would silently convert (-1 to 2^64-1,
// 2.5 to 2, a string to nothing), naming the field.
std::uint64_t unsigned_field(const nlohmann::json& j, const char* name) {
    const auto& v = j.at(name);
    if (!v.is_number_integer() || (!v.is_number_unsigned() && v.get<std::int64_t>() < 0)) throw UsageError(std::string(name) + " must be a non-negative integer, not " + v.dump());
    return v.get<std::uint64_t>();
}

double number_field(const nlohmann::json& j, const char* name) {
    const auto& v = j.at(name);
    if (!v.is_number()) throw UsageError(std::string(name) + " must be a number, not " + v.dump());
    return v.get<double>();
}

template <typename T>
T bounded(const char* name, std::uint64_t v, std::uint64_t lo, std::uint64_t hi) {
    if (v < lo || v > hi)
        throw UsageError(std::string(name) + " " + std::to_string(v) + " is outside [" + std::to_string(lo) + ", " +
                         std::to_string(hi) + "]");
    return static_cast<T>(v);
}

void check_range(const char* name, double v, double lo_excl, double hi_incl) {
    if (!(std::isfinite(v) && v > lo_excl && v <= hi_incl))
        throw UsageError(std::string(name) + " " + std::to_string(v) + " is outside (" + std::to_string(lo_excl) +
                         ", " + std::to_string(hi_incl) + "]");
}

}  // namespace

void validate_run_options(const RunOptions& o) {
    const auto& lim = kRunOptionLimits;
    bounded<std::uint64_t>("min_size", o.sweep.min_bytes, 1, lim.max_size);
    bounded<std::uint64_t>("max_size", o.sweep.max_bytes, o.sweep.min_bytes, lim.max_size);
    if (o.sweep.points_per_octave != 1 && o.sweep.points_per_octave != 3)
        throw UsageError("points_per_octave must be 1 or 3");
    bounded<int>("octave_step", static_cast<std::uint64_t>(std::max(o.sweep.octave_step, 0)), 1, lim.max_octave_step);
    bounded<std::size_t>("min_samples", o.stopping.min_samples, 1, lim.max_samples);
    bounded<std::size_t>("max_samples", o.stopping.max_samples, o.stopping.min_samples, lim.max_samples);
    check_range("max_noise", o.stopping.max_noise, 0, 1 - 1e-12);
    check_range("time_budget_s", o.stopping.time_budget_s, 0, lim.max_time_budget_s);
    check_range("min_samples_budget_factor", o.stopping.min_samples_budget_factor, 0, lim.max_budget_factor);
    bounded<std::size_t>("noise_limit_after", o.stopping.noise_limit_after, 0, lim.max_samples);
    check_range("noise_limit_margin", o.stopping.noise_limit_margin, 0, lim.max_budget_factor);
    bounded<std::size_t>("warmup_runs", o.warmup_runs, 0, lim.max_warmup_runs);
    bounded<std::size_t>("max_variants", o.max_variants, 0, lim.max_variants);
    bounded<unsigned>("max_workers", o.method.max_workers, 0, lim.max_workers);
    if (o.plan.confirmation_sizes != 1 && o.plan.confirmation_sizes != 3)
        throw UsageError("plan.confirmation_sizes must be 1 or 3");
    if (o.plan.ladder_octave_step != 1 && o.plan.ladder_octave_step != 2)
        throw UsageError("plan.ladder_octave_step must be 1 or 2");
    if (o.sizes.empty() || o.sizes.size() > lim.max_sizes)
        throw UsageError("sizes must list 1 to " + std::to_string(lim.max_sizes) + " transfer sizes");
    for (std::size_t i = 0; i < o.sizes.size(); ++i) {
        bounded<std::uint64_t>("a size in sizes", o.sizes[i], o.sweep.min_bytes, o.sweep.max_bytes);
        if (i > 0 && o.sizes[i] <= o.sizes[i - 1]) throw UsageError("sizes must be ascending without repeats");
    }
}

RunOptions run_options_from_json(const nlohmann::json& j) {
    try {
        if (!j.is_object()) throw UsageError("must be an object, not " + std::string(j.type_name()));
        const auto& lim = kRunOptionLimits;
        RunOptions o;
        o.sweep.min_bytes = unsigned_field(j, "min_size");
        o.sweep.max_bytes = unsigned_field(j, "max_size");
        o.sweep.points_per_octave = bounded<int>("points_per_octave", unsigned_field(j, "points_per_octave"), 1, 3);
        o.sweep.octave_step = bounded<int>("octave_step", unsigned_field(j, "octave_step"), 1, lim.max_octave_step);
        const auto& sizes = j.at("sizes");
        if (!sizes.is_array()) throw UsageError("sizes must be an array");
        for (const auto& s : sizes) {
            if (!s.is_number_integer() || (!s.is_number_unsigned() && s.get<std::int64_t>() < 0)) throw UsageError("sizes must hold non-negative integers, not " + s.dump());
            o.sizes.push_back(s.get<std::uint64_t>());
        }
        o.stopping.min_samples = unsigned_field(j, "min_samples");
        o.stopping.max_noise = number_field(j, "max_noise");
        o.stopping.time_budget_s = number_field(j, "time_budget_s");
        o.stopping.max_samples = unsigned_field(j, "max_samples");
        if (j.contains("min_samples_budget_factor"))
            o.stopping.min_samples_budget_factor = number_field(j, "min_samples_budget_factor");
        // Files written before the noise limit existed resume with it off, as they were measured.
        o.stopping.noise_limit_after = j.contains("noise_limit_after") ? unsigned_field(j, "noise_limit_after") : 0;
        if (j.contains("noise_limit_margin")) o.stopping.noise_limit_margin = number_field(j, "noise_limit_margin");
        o.warmup_runs = unsigned_field(j, "warmup_runs");
        o.max_variants = unsigned_field(j, "max_variants");
        o.method.max_workers = bounded<unsigned>("max_workers", unsigned_field(j, "max_workers"), 0, lim.max_workers);
        if (j.value("smt", false)) o.method.values.set("smt", "true");  // files written before --smt was a method option
        const std::string timing = j.at("timing").get<std::string>();
        const auto mode = timing_mode_from(timing);
        if (!mode) throw UsageError("timing must be wall or event, not '" + timing + "'");
        o.method.timing = *mode;
        o.method.pool_half_gpu_memory = j.value("pool_half_gpu_memory", false);
        o.quick = j.at("quick").get<bool>();
        o.filters = j.at("filters").get<std::vector<std::string>>();
        for (const auto& [name, value] : j.value("method_options", std::map<std::string, std::string>{}))
            o.method.values.set(name, value);
        for (const auto& spec : j.value("under_load", std::vector<std::string>{}))
            o.method.under_load.push_back(parse_load_spec(spec));  // resolved against the graph later
        if (const auto t = j.find("transfers"); t != j.end() && !t->is_null()) {
            o.method.transfer_sets_source = t->at("source").get<std::string>();
            o.method.transfer_sets = t->at("sets").get<std::string>();
            (void)parse_transfer_sets(o.method.transfer_sets, o.method.transfer_sets_source);  // resolved later
        }
        if (const auto plan = j.find("plan"); plan != j.end()) {
            if (!plan->is_object()) throw UsageError("plan must be an object");
            o.plan.exhaustive = plan->at("exhaustive").get<bool>();
            o.plan.confirmation_sizes = unsigned_field(*plan, "confirmation_sizes");
            o.plan.ladder_octave_step = static_cast<int>(std::min<std::uint64_t>(unsigned_field(*plan, "ladder_octave_step"), 8));
        } else {
            o.plan.exhaustive = true;  // written before plans: every record was a full sweep
        }
        validate_run_options(o);
        return o;
    } catch (const nlohmann::json::exception& e) {
        throw UsageError(std::string("meta.options is malformed: ") + e.what());
    } catch (const UsageError& e) {
        throw UsageError(std::string("meta.options is malformed: ") + e.what());
    }
}

void resolve_run_options(RunOptions& o, const Graph& graph, const Registry& registry) {
    const auto specs = registry.option_specs();
    for (const auto& option : o.method.values.all()) {
        const std::string& name = option.first;  // clang 14 cannot capture a structured binding
        const std::string& value = option.second;
        const auto spec = std::find_if(specs.begin(), specs.end(), [&](const OptionSpec& s) { return s.name == name; });
        if (spec == specs.end()) throw UsageError("--" + name + " is not an option of this build's methods");
        if (const std::string why = check_option_value(*spec, value); !why.empty()) throw UsageError(why);
    }
    o.method.load_routes = resolve_load_specs(graph, o.method.under_load);
}

}  // namespace hwcomm
