#pragma once
// The results file as plain structs: meta + topology + one record per (method,
// src, dst, params), each with its points (one per transfer size or axis
// value). Analysis code reads only this. Reading, writing and migrating the
// JSON (schema "hwcomm-results", version "2.0") live in src/io; the format is
// documented in docs/schema.md.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace hwcomm {

inline constexpr const char* kResultsSchema = "hwcomm-results";
// Written by this build; readers accept every 2.x and version 1 (migrated).
inline constexpr const char* kResultsVersion = "2.2";

// Summary of raw sample times (seconds per transfer). A field that is NaN is
// absent (imported aggregates carry only some of them): writers omit it,
// readers leave it NaN. Measured statistics always fill every field.
struct SampleStats {
    std::size_t n = 0;
    double min = 0, q1 = 0, median = 0, q3 = 0, max = 0;
    double mean = 0, stdev = 0, cv = 0;        // stdev: sample (n-1); cv = stdev/mean
    double ci95_low = 0, ci95_high = 0;        // 95% CI of the median (order statistics)
    // The CI's half-width relative to the median (the same for the rate); 0 without a median.
    double relative_ci_half_width() const { return median > 0 ? (ci95_high - ci95_low) / 2 / median : 0; }
};

// One variant of a point (cpu-read: one worker count).
struct VariantResult {
    std::string variant;
    SampleStats stats;
    double bandwidth_gbps = 0;
    std::string stop_reason;
    std::vector<double> samples_s;
    nlohmann::json unknown = nlohmann::json::object();  // keys this build does not know
};

// A value with its unit ("GB/s", "s", "cycles", "ns", "sectors", "count").
struct Metric {
    double value = 0;
    std::string unit;
};

// One lane of a measurement: one transfer stream between two endpoints (or one
// kernel on one GPU). role "measured" lanes make the record's numbers; "load"
// lanes keep links busy (the set U of the study's model M(C, U)).
struct LaneSpec {
    std::string label;  // unique within the record, e.g. "gpu1->numa0"
    std::string method, src, dst;
    std::map<std::string, std::string> params;
    std::string role = "measured";  // "measured" | "load"
    nlohmann::json unknown = nlohmann::json::object();  // keys this build does not know
};

// What one lane achieved at one point: its own transfer time per repetition
// (from its own start to its own end) over the samples.
struct LanePoint {
    std::string label;
    double bytes_per_rep = 0;
    SampleStats stats;
    double bandwidth_gbps = 0;  // bytes_per_rep / stats.median / 1e9
    std::vector<double> samples_s;
    nlohmann::json unknown = nlohmann::json::object();  // keys this build does not know
};

struct Point {
    std::uint64_t bytes = 0;
    std::string status = "ok";   // "ok" | "error"
    std::string error;
    bool verified = false;
    std::string stop_reason;     // "converged" | "time_budget" | "max_samples" | "noise_limited"
    std::vector<double> samples_s;  // seconds per transfer (sample time / repetitions)
    SampleStats stats;
    double bandwidth_gbps = 0;       // bytes_per_rep / median / 1e9
    double peak_bandwidth_gbps = 0;  // bytes_per_rep / min / 1e9
    double bytes_per_rep = 0;
    std::map<std::string, double> extras;  // median over samples of method-specific facts
    std::string best_variant;              // the variant reported: best of `variants`, or the one chosen per record
    std::vector<VariantResult> variants;
    // Schema 2. Values of the method's other axes at this point (stride,
    // warps per SM, ...): integer or string JSON scalars.
    std::map<std::string, nlohmann::json> axes;
    // Metrics besides bandwidth_gbps (time per operation, cycles, counts).
    std::map<std::string, Metric> metrics;
    // Per-lane results when the measurement had more than one lane.
    std::vector<LanePoint> lanes;
    // Schema 2.2. Wall seconds this point took (warm-ups, samples, resets and
    // checks of every variant): what --calibrate fits costs from. 0: not recorded.
    double elapsed_s = 0;
    // Keys this build does not know, kept so a rewrite does not strip them.
    nlohmann::json unknown = nlohmann::json::object();
};

struct Record {
    std::string key;  // record_key(method, src, dst, params)
    std::string method, src, dst;
    std::map<std::string, std::string> params;
    std::string status = "ok";  // "ok" | "error"
    std::string error;
    std::string error_type;     // "verification", or the C++ type of the exception ("hwcomm::MeasurementError")
    nlohmann::json context = nlohmann::json::object();
    std::vector<Point> points;
    // Schema 2. The lanes of the measurement (one for a plain transfer).
    std::vector<LaneSpec> lanes;
    // Where the record came from: {"kind":"measured","tool":"hwcomm","revision":...}
    // or {"kind":"imported","tool":"comm|scope","file":...}.
    nlohmann::json provenance = nlohmann::json::object();
    // Schema 2.2. How the plan measured it (docs/schema.md): "full" (every size
    // of its ladder), "confirmed" (a few sizes, within its class's spread) or
    // "promoted" (confirmed sizes outside it on two measurements, then the
    // full sweep). Empty: not said (older files, imports): read as full.
    std::string measured_as;
    // Keys this build does not know, kept so a rewrite does not strip them.
    nlohmann::json unknown = nlohmann::json::object();
};

struct ResultsFile {
    nlohmann::json meta = nlohmann::json::object();
    nlohmann::json topology = nlohmann::json::object();  // graph_to_json
    std::vector<Record> records;
    // The identical-link classes of the run's endpoint pairs and sets
    // (classes/link_classes.hpp, class_map_to_json); null when the file has none.
    nlohmann::json link_classes;
    // Top-level keys this build does not know, kept so a rewrite does not strip them.
    nlohmann::json unknown = nlohmann::json::object();

    const Record* find(const std::string& key) const;
};

// The seconds of a record's wall time (context.elapsed_s) that lay outside
// its points (buffers, binding, worker-count probes), never below 0; nullopt
// when the record has no elapsed_s or a point has none of its own (files
// before schema 2.2, imports).
std::optional<double> seconds_outside_points(const Record& r);

// "method|src|dst|k=v,k=v" (params in key order, empty when none).
std::string record_key(const std::string& method, const std::string& src, const std::string& dst,
                       const std::map<std::string, std::string>& params);


}  // namespace hwcomm
