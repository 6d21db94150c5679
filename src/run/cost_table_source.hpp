#pragma once
// The built-in cost table as C++ source (run/builtin_cost_table.cpp): what
// `hwcomm __generate cost-table` writes from a results file's fit, so the
// fit (run/cost_fit.hpp) is the table's one source of truth and a test can
// check the committed table is that file's fit, to the byte.
#include <map>
#include <string>

#include "run/cost_model.hpp"

namespace hwcomm {

std::string cost_table_source(const std::map<std::string, MethodCost>& methods, const std::string& description,
                              const std::string& results_file);

}  // namespace hwcomm
