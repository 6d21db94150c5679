#pragma once
// The results file: one JSON document per run (schema "hwcomm-results",
// version 1). meta + topology + one record per (method, src, dst, params),
// each with its points (one per transfer size). Analysis code reads only this.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace hwcomm {

inline constexpr const char* kResultsSchema = "hwcomm-results";
inline constexpr int kResultsSchemaVersion = 1;

// Summary of raw sample times (seconds per transfer).
struct SampleStats {
    std::size_t n = 0;
    double min = 0, q1 = 0, median = 0, q3 = 0, max = 0;
    double mean = 0, stdev = 0, cv = 0;        // stdev: sample (n-1); cv = stdev/mean
    double ci95_low = 0, ci95_high = 0;        // 95% CI of the median (order statistics)
};

// One variant of a point (cpu-read: one worker count).
struct VariantResult {
    std::string variant;
    SampleStats stats;
    double bandwidth_gbps = 0;
    std::string stop_reason;
    std::vector<double> samples_s;
};

struct Point {
    std::uint64_t bytes = 0;
    std::string status = "ok";   // "ok" | "error"
    std::string error;
    bool verified = false;
    std::string stop_reason;     // "converged" | "time_budget" | "max_samples"
    std::vector<double> samples_s;  // seconds per transfer (sample time / repetitions)
    SampleStats stats;
    double bandwidth_gbps = 0;       // bytes_per_rep / median / 1e9
    double peak_bandwidth_gbps = 0;  // bytes_per_rep / min / 1e9
    double bytes_per_rep = 0;
    std::map<std::string, double> extras;  // median over samples of method-specific facts
    std::string best_variant;              // set only when variants has > 1 entry
    std::vector<VariantResult> variants;
};

struct Record {
    std::string key;  // record_key(method, src, dst, params)
    std::string method, src, dst;
    std::map<std::string, std::string> params;
    std::string status = "ok";  // "ok" | "error"
    std::string error;
    nlohmann::json context = nlohmann::json::object();
    std::vector<Point> points;
};

struct ResultsFile {
    nlohmann::json meta = nlohmann::json::object();
    nlohmann::json topology = nlohmann::json::object();  // graph_to_json
    std::vector<Record> records;

    const Record* find(const std::string& key) const;
};

// "method|src|dst|k=v,k=v" (params in key order, empty when none).
std::string record_key(const std::string& method, const std::string& src, const std::string& dst,
                       const std::map<std::string, std::string>& params);

nlohmann::json stats_to_json(const SampleStats& s);
SampleStats stats_from_json(const nlohmann::json& j);

nlohmann::json results_to_json(const ResultsFile& file);
// Throws std::runtime_error naming the problem when the document is not a
// results file of a version this build reads.
ResultsFile results_from_json(const nlohmann::json& doc);
// Reads and parses a file; throws std::runtime_error (unreadable, not JSON,
// not a results file).
ResultsFile load_results_file(const std::string& path);

}  // namespace hwcomm
