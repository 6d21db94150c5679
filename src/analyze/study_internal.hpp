#pragma once
// Helpers the cell builders of study_cells*.cpp share (not a public API).
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analyze/study.hpp"

namespace hwcomm::analyze {

// GPU-GPU series of one peer state, one per (src, dst): for peer-off copies the
// binding local to the source GPU when measured, else unbound, else the lowest node.
std::map<std::pair<std::string, std::string>, const Series*> peer_series_by_pair(const std::vector<Series>& all,
                                                                                 const std::string& peer);
nlohmann::json verdict_window_json(const VerdictRule& rule);
std::string series_binding(const Series& s);
void decide_cell(Cell& c, const std::vector<double>& effects, double effect, const VerdictRule& rule);
void no_data_cell(Cell& c, const std::string& why);
Cell new_cell(const std::string& table, const std::string& link, const std::string& a, const std::string& b);
// The rule's statistic over the sizes both series measured in the window of
// a(n) / b(n) - 1; nullopt when they share no size there.
std::optional<double> paired_difference(const Series& a, const Series& b, const VerdictRule& rule);
// The rule's statistic over the sizes all series measured of fastest / slowest - 1.
std::optional<double> group_spread(const std::vector<const Series*>& group, const VerdictRule& rule);
void gpu_gpu_cells(const std::vector<Series>& all, const VerdictRule& rule, std::vector<Cell>& cells);

}  // namespace hwcomm::analyze
