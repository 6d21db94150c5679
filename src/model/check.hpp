#pragma once
// hwcomm model check: how well the model predicts what it was not shown.
// - leave-one-size-out: every measured size of every curve predicted from the
//   curve without it;
// - leave-one-pair-out: every record of a pair (both directions) predicted at
//   its largest size from the graph and the other pairs, as for a pair never
//   measured;
// - concurrency: every lane of every concurrency record predicted from the
//   single transfers and the edge capacities fitted on the other records.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/fit.hpp"

namespace hwcomm::model {

struct CheckCase {
    std::string key;          // record (and lane label for concurrency)
    std::uint64_t bytes = 0;
    double predicted = 0, measured = 0;  // seconds (sizes) or GB/s (pairs, lanes)
    double error = 0;         // predicted / measured - 1
    std::string note;
};

struct ErrorSummary {
    std::string name;
    std::vector<CheckCase> cases;
    std::size_t skipped = 0;  // could not be predicted
    std::vector<std::string> skip_reasons;
    double median_abs = 0, p90_abs = 0, max_abs = 0;
    std::size_t within_5pct = 0, within_15pct = 0;
};

struct CheckReport {
    ErrorSummary sizes, pairs, lanes, aggregates;
    std::uint64_t min_bytes = 0;
};

CheckReport check_model(const std::vector<NamedResults>& inputs, std::uint64_t min_bytes,
                        std::uint64_t lane_min_bytes);

std::string format_check(const CheckReport& report, std::size_t worst);
nlohmann::json check_to_json(const CheckReport& report);

}  // namespace hwcomm::model
