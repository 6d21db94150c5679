#include "run/run_options.hpp"

#include <stdexcept>

namespace hwcomm {

RunOptions default_run_options() {
    RunOptions o;
    // Sized so a default run over the 4 CPU records of a one-node, 2-core
    // machine ends within 2 minutes (docs/benchmarks.md).
    o.stopping.time_budget_s = 0.2;
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
    o.max_variants = 3;
    return o;
}

nlohmann::json run_options_to_json(const RunOptions& o) {
    return {{"min_size", o.sweep.min_bytes},
            {"max_size", o.sweep.max_bytes},
            {"points_per_octave", o.sweep.points_per_octave},
            {"octave_step", o.sweep.octave_step},
            {"sizes", o.sizes},
            {"min_samples", o.stopping.min_samples},
            {"max_noise", o.stopping.max_noise},
            {"time_budget_s", o.stopping.time_budget_s},
            {"max_samples", o.stopping.max_samples},
            {"min_samples_budget_factor", o.stopping.min_samples_budget_factor},
            {"warmup_runs", o.warmup_runs},
            {"max_variants", o.max_variants},
            {"max_workers", o.method.max_workers},
            {"smt", o.method.smt},
            {"timing", o.method.timing_mode},
            {"pool_half_gpu_memory", o.method.pool_half_gpu_memory},
            {"quick", o.quick},
            {"filters", o.filters},
            {"method_options", o.method.values.all()}};
}

RunOptions run_options_from_json(const nlohmann::json& j) {
    try {
        RunOptions o;
        o.sweep.min_bytes = j.at("min_size").get<std::uint64_t>();
        o.sweep.max_bytes = j.at("max_size").get<std::uint64_t>();
        o.sweep.points_per_octave = j.at("points_per_octave").get<int>();
        o.sweep.octave_step = j.at("octave_step").get<int>();
        o.sizes = j.at("sizes").get<std::vector<std::uint64_t>>();
        o.stopping.min_samples = j.at("min_samples").get<std::size_t>();
        o.stopping.max_noise = j.at("max_noise").get<double>();
        o.stopping.time_budget_s = j.at("time_budget_s").get<double>();
        o.stopping.max_samples = j.at("max_samples").get<std::size_t>();
        o.stopping.min_samples_budget_factor = j.value("min_samples_budget_factor", 5.0);
        o.warmup_runs = j.at("warmup_runs").get<std::size_t>();
        o.max_variants = j.at("max_variants").get<std::size_t>();
        o.method.max_workers = j.at("max_workers").get<unsigned>();
        o.method.smt = j.value("smt", false);
        o.method.timing_mode = j.at("timing").get<std::string>();
        o.method.pool_half_gpu_memory = j.value("pool_half_gpu_memory", false);
        o.quick = j.at("quick").get<bool>();
        o.filters = j.at("filters").get<std::vector<std::string>>();
        for (const auto& [name, value] : j.value("method_options", std::map<std::string, std::string>{}))
            o.method.values.set(name, value);
        return o;
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(std::string("meta.options is malformed: ") + e.what());
    }
}

}  // namespace hwcomm
