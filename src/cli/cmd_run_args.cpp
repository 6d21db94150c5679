#include "cli/cmd_run_args.hpp"

#include <cmath>
#include <stdexcept>

#include "core/error.hpp"
#include "measure/byte_size.hpp"
#include "measure/sweep.hpp"
#include "methods/method_options.hpp"
#include "methods/under_load.hpp"
#include "platform/host_info.hpp"

namespace hwcomm::cli {

namespace {

// Every declared option gets its value (given or default), checked against its spec.
void set_declared_options(const RunArgs& a, RunOptions& o) {
    for (const OptionSpec& spec : a.declared_specs) {
        const auto it = a.declared.find(spec.name);
        const auto flag = a.declared_flags.find(spec.name);
        std::string value = it != a.declared.end() && !it->second.empty() ? it->second : spec.default_value;
        if (flag != a.declared_flags.end() && flag->second) value = "true";
        if (value.empty()) continue;
        if (const std::string why = check_option_value(spec, value); !why.empty()) throw UsageError(why);
        o.method.values.set(spec.name, value);
    }
}

double parse_noise(const std::string& text) {
    try {
        std::size_t used = 0;
        double v = std::stod(text, &used);
        std::string rest = text.substr(used);
        if (rest == "%") v /= 100;
        else if (!rest.empty()) throw std::invalid_argument(rest);
        if (!(v > 0 && v < 1)) throw std::out_of_range(text);
        return v;
    } catch (const std::logic_error&) {
        throw UsageError("--max-noise '" + text + "': expected a fraction in (0,1) such as 0.01, or a percentage such as 1%");
    }
}

}  // namespace

RunOptions options_from_args(const RunArgs& a) {
    RunOptions o = a.quick ? quick_run_options() : default_run_options();
    if (!a.min_size.empty()) o.sweep.min_bytes = parse_size(a.min_size);
    if (!a.max_size.empty()) o.sweep.max_bytes = parse_size(a.max_size);
    if (a.points_per_octave) o.sweep.points_per_octave = a.points_per_octave;
    if (a.min_samples) o.stopping.min_samples = a.min_samples;
    if (a.noise_limit) o.stopping.noise_limit_after = *a.noise_limit;
    if (!a.max_noise.empty()) o.stopping.max_noise = parse_noise(a.max_noise);
    if (!(a.time_budget >= 0 && std::isfinite(a.time_budget)))  // nan and inf too
        throw UsageError("--time-budget must be a positive number of seconds");
    if (a.time_budget > 0) o.stopping.time_budget_s = a.time_budget;
    if (a.max_workers) o.method.max_workers = a.max_workers;
    if (!a.timing.empty()) {
        const auto mode = timing_mode_from(a.timing);
        if (!mode) throw UsageError("--timing must be wall or event");
        o.method.timing = *mode;
    }
    o.method.pool_half_gpu_memory = a.pool_half_gpu_memory;
    set_declared_options(a, o);
    o.filters = a.filters;
    // Syntax now; endpoints once the graph is known (resolve_run_options).
    for (const auto& spec : a.under_load) o.method.under_load.push_back(parse_load_spec(spec));
    o.plan.exhaustive = a.exhaustive;
    // Room for two buffers of the largest size (memcpy) and the rest of the system;
    // a plan for another machine (--input) does not know its memory.
    const std::uint64_t avail = available_memory_bytes();
    o.sizes = sweep_sizes(o.sweep);
    if (avail > 0 && a.plan.input.empty() && a.plan.nvml_replay.empty()) o.sizes = cap_sizes(o.sizes, avail / 4);
    validate_run_options(o);  // the limits a resumed file must meet too
    return o;
}

std::string measurement_option_given(const RunArgs& a) {
    for (const CLI::Option* o : a.measurement)
        if (o->count() > 0) return o->get_name();
    return "";
}

}  // namespace hwcomm::cli
