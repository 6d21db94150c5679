#pragma once
// Two results files side by side: records matched by key, the change of
// large-transfer bandwidth and small-transfer time with whether the 95%
// confidence intervals overlap, records on one side only, and how the two
// machines and the two runs' options differ.
#include <optional>
#include <string>
#include <vector>

#include "core/results.hpp"

namespace hwcomm::analyze {

struct MetricChange {
    double a = 0, b = 0;
    double change = 0;                  // (b - a) / a
    std::optional<bool> ci_overlap;     // at the size that decides it; nullopt when a CI is absent
    std::uint64_t bytes = 0;            // that size
};

struct RecordChange {
    std::string key;
    std::optional<MetricChange> large;  // large-transfer GB/s
    std::optional<MetricChange> small;  // small-transfer time (GPU paths)
    bool beyond = false;                // a change passes the threshold
};

struct RecordsComparison {
    std::vector<RecordChange> common;
    std::vector<std::string> only_a, only_b;
    std::vector<std::string> machine_differences;  // "GPUs: 2x NVIDIA H200 vs 4x NVIDIA H200"
    // Run options that change what a record measures (sizes, sampling,
    // timing): "quick: true vs false". Filters only choose records: left out.
    std::vector<std::string> option_differences;
    double threshold = 0.05;
    int beyond = 0;
};

RecordsComparison compare_results(const ResultsFile& a, const ResultsFile& b, double threshold);
std::string format_comparison(const RecordsComparison& c, const std::string& name_a, const std::string& name_b);

}  // namespace hwcomm::analyze
