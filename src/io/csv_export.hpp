#pragma once
// Flattens a results file to CSV: one row per point (best variant), for
// spreadsheets and plotting scripts.
#include <string>

#include "core/results.hpp"

namespace hwcomm {

std::string results_to_csv(const ResultsFile& file);

}  // namespace hwcomm
