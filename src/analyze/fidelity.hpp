#pragma once
// Compares a results file with reference figures (docs/targets-*.json): for
// each target, the best matching record's number, and whether it comes
// within the tolerance, beats the figure, or misses it.
//
// Targets file: {"schema":"hwcomm-targets","version":1,"machine":..,"source":..,
//   "tolerance":0.02, "targets":[{"id","label","method","params":{..},
//   "metric":"peak_gbps"|"small_latency_us"|"gbps_at_bytes"|"extra_peak:<key>",
//   "value":V, "range":[lo,hi] (optional), "bytes":N (gbps_at_bytes),
//   "timing":"wall"|"event" (optional: preferred timing mode)}]}
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/results.hpp"

namespace hwcomm::analyze {

struct Target {
    std::string id, label, method, metric, timing;
    std::map<std::string, std::string> params;  // must all match the record's
    double value = 0;
    double low = 0, high = 0;  // the range (both = value when no range)
    std::uint64_t bytes = 0;
};

struct TargetsFile {
    std::string machine, source;
    // The GPUs the figures were measured on: "gpus":{"count":2,"model":"NVIDIA H200"}
    // when the file says so, else read from a machine text starting "2x NVIDIA H200".
    int gpu_count = 0;
    std::string gpu_model;
    double tolerance = 0.02;
    std::vector<Target> targets;
};

// Throws std::runtime_error naming the problem.
TargetsFile targets_from_json(const nlohmann::json& doc);
TargetsFile load_targets_file(const std::string& path);

enum class Verdict { Within, Beats, Misses, NoData };
const char* to_string(Verdict v);

struct Comparison {
    Target target;
    std::optional<double> measured;
    std::string record_key;  // which record gave it
    std::string note;        // e.g. "measured in event mode, target is wall clock"
    Verdict verdict = Verdict::NoData;
    // Signed relative difference of the number from the figure's range
    // ((measured - bound) / bound): a latency above the figure is positive
    // (and a miss), a bandwidth above it is positive (and beats it).
    double deviation = 0;
};

// Whether the results come from the machine the figures describe (GPU count
// and model from the results' topology).
struct MachineCheck {
    bool same = true;          // false only when both sides are known and differ ("no GPU" is known)
    std::string targets, results;
};
MachineCheck check_machine(const ResultsFile& results, const TargetsFile& targets);
// True when a figure is missed, the machines differ (a CPU-only machine
// differs from the figures' GPUs) or no target has data: the exit status 1 of --targets.
bool fidelity_failed(const std::vector<Comparison>& rows, const MachineCheck& machine);

// Lower is better for latency metrics; higher for bandwidth.
bool lower_is_better(const std::string& metric);
// The verdict of one number against [low, high] with a tolerance.
Verdict judge(double measured, double low, double high, double tolerance, bool lower_better, double* deviation);

std::vector<Comparison> compare(const ResultsFile& results, const TargetsFile& targets);
std::string format_comparisons(const std::vector<Comparison>& rows, const TargetsFile& targets,
                               const MachineCheck& machine = {});

}  // namespace hwcomm::analyze
