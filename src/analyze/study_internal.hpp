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
// How far apart a group of curves that should be alike lie, over the window
// sizes every one of them measured: per series, the rule's statistic over
// those sizes of log(its bandwidth / the group's median at the size); spread =
// exp(highest - lowest) - 1, between the series `fastest` and `slowest` so
// found. A series consistently off the others shows; curves that cross from
// size to size do not add up: per-size fastest / slowest alone read +29%
// between two pageable D2H links whose window medians were both 10.80 GB/s
// (nvidia-h200-x2 at e021a7c). nullopt when they share no size. `points`: the
// series' bandwidths to compare (the identical-link cells: class_points).
struct GroupSpread {
    double spread = 0;
    const Series* fastest = nullptr;
    const Series* slowest = nullptr;
    double fastest_gbps = 0, slowest_gbps = 0;  // their medians over the common sizes
    std::size_t sizes = 0;                      // how many sizes every series measured
};
using SeriesPoints = std::map<std::uint64_t, double> Series::*;
std::optional<GroupSpread> group_spread(const std::vector<const Series*>& group, const VerdictRule& rule,
                                        SeriesPoints points = &Series::window_points);
// An identical-links cell's entry for one class of links (`measured`: their
// group_spread): {n, slowest, slowest_gbps, fastest, fastest_gbps, spread,
// sizes, class}, measured_again (the keys of the series whose class_points
// took a recheck's sizes) and repeat (the largest difference between two
// measurements of one of the links, Series::repeats: {key, bytes, first_gbps,
// again_gbps, difference}) where there are any; measured_twice (how many of
// the links count by the mean of their class's second pass) and within_repeat
// (true: the spread is no more than that one link moved) where so.
nlohmann::json identical_links_group(const std::vector<const Series*>& group, const GroupSpread& measured);
// An identical-links cell's verdict from its groups (evidence.groups, the
// spreads in `spreads`): effect = the largest spread; "true" when a group
// spreads beyond the threshold and beyond how far one of its links moved
// between two measurements (within_repeat); a spread within that cannot tell
// the links from the time each ran, and says so (evidence.within_repeat).
void decide_identical_links(Cell& c, const std::vector<double>& spreads, const VerdictRule& rule);
void gpu_gpu_cells(const std::vector<Series>& all, const VerdictRule& rule, std::vector<Cell>& cells);

}  // namespace hwcomm::analyze
