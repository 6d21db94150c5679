#pragma once
// The cost model's constants fitted on a results file's measured records
// (run/cost_model.hpp): `hwcomm run --calibrate FILE` and the built-in table
// (scripts/fit-cost-constants.sh) both use this one fit.
#include <map>
#include <string>
#include <vector>

#include "core/results.hpp"
#include "measure/size_ladder.hpp"
#include "run/cost_model.hpp"

namespace hwcomm {

// Per method, on the records with context.elapsed_s: setup_s the mean of a
// full record's time outside its points (a promoted one's only where no full
// one is: it includes its confirmation), confirm_setup_s a confirmation's; per size band the mean cost of a point,
// split by how it stopped (time budget, noise limit, else); per band the ladder sweeps'
// measured points per first-pass size (meta.options.sizes at the plan's
// octave step). Means, not medians: a plan's estimate is a sum. Points
// without their own elapsed_s (older files) share their record's time in
// proportion to their sampled time. The ladder stop: where most records'
// ladders stopped (a fixed sweep's records: where a ladder would have).
std::map<std::string, MethodCost> fit_method_costs(const ResultsFile& file, const LadderOptions& ladder = {});
// The records of several runs as one file to fit, with the first run's meta:
// machines of two kinds (the one-H100 and the 2x H200 default runs) centre the
// table between them. Throws std::invalid_argument when the runs' stopping
// options or sizes differ (their points would not price the same plan).
ResultsFile pooled_results(const std::vector<ResultsFile>& files);
// The separator of several results files in the built-in table's results_file.
inline constexpr const char* kPooledFilesSeparator = " + ";

// `base` with the methods fitted on `file` replacing its own constants.
CostModel calibrated_cost_model(const ResultsFile& file, const std::string& path, CostModel base);

// The sizes the ladder would measure on a record's own points (sizes the
// record lacks count as failed): how a fixed sweep's file tells where the
// plateau holds.
std::vector<std::uint64_t> replay_ladder(const Record& record, const std::vector<std::uint64_t>& candidates,
                                         const LadderOptions& options);

}  // namespace hwcomm
