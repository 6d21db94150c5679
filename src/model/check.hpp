#pragma once
// hwcomm model check: how well the model predicts what it was not shown.
// - leave-one-size-out: every measured size of every curve predicted from the
//   curve without it;
// - leave-one-pair-out: every record of a pair (both directions) predicted at
//   its largest size from the graph and the other pairs, as for a pair never
//   measured;
// - concurrency: every lane of every record of transfers run together
//   predicted from the single transfers and the shared edges fitted on the
//   other records (leave-one-record-out);
// - leave-one-level-out: every record with n transfers on a shared edge held
//   out together, predicted from the other lane counts;
// - leave-one-member-out: every record that measured one member of a shared
//   edge's class (a GPU behind the host bridge), and its single transfers,
//   held out together and predicted from the other members.
// The last two are the honest accuracy of `predict --while`.
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
    double low = 0, high = 0; // the prediction's interval (lanes; 0, 0: none given)
};

struct ErrorSummary {
    std::string name;
    std::vector<CheckCase> cases;
    std::size_t skipped = 0;  // could not be predicted
    std::vector<std::string> skip_reasons;
    double median_abs = 0, p90_abs = 0, max_abs = 0;
    std::size_t within_5pct = 0, within_15pct = 0;
    std::size_t with_interval = 0, inside_interval = 0;  // measured inside the predicted interval
    std::vector<ErrorSummary> groups;  // one per level or member held out (their cases are also in `cases`)
};

struct CheckReport {
    ErrorSummary sizes, pairs, lanes, aggregates, levels, members;
    std::uint64_t min_bytes = 0;
    std::string no_load_reason;  // set when the input holds no transfers measured together
};

CheckReport check_model(const std::vector<NamedResults>& inputs, std::uint64_t min_bytes,
                        std::uint64_t lane_min_bytes);

std::string format_check(const CheckReport& report, std::size_t worst);
nlohmann::json check_to_json(const CheckReport& report);

}  // namespace hwcomm::model
