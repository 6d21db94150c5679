#pragma once
// Each method that measured nothing in a results file, and why (as
// nvbandwidth v0.10 lists its skipped tests with their reasons): what `hwcomm
// run` wrote in meta.run.not_measured (not in this build, not applicable to
// any pair here, filtered out, a --transfers run), and the methods whose every
// record was skipped (what the machine lacks) or failed.
#include <string>
#include <vector>

#include "core/results.hpp"

namespace hwcomm::analyze {

struct MethodWithoutData {
    std::string method, why;
};

std::vector<MethodWithoutData> methods_without_data(const ResultsFile& file);

// "methods that measured nothing:" and one line per method; "" when none.
// `source` labels the lines when several files are summarized ("#2").
std::string format_methods_without_data(const std::vector<MethodWithoutData>& list, const std::string& source = "");

}  // namespace hwcomm::analyze
