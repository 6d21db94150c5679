#pragma once
// Which measured curve shows what each edge of the machine achieves: for every
// single-stream record, the large-transfer bandwidth counts for every edge on
// its route; an edge keeps the best. Duplex and multi-lane records are left
// out (their total is two directions, the edge rate one).
#include <cstddef>
#include <map>

#include "core/graph.hpp"
#include "core/results.hpp"
#include "report/html/topo_svg.hpp"

namespace hwcomm::report_html {

std::map<std::size_t, EdgeMeasure> measured_edges(const Graph& graph, const ResultsFile& results);

}  // namespace hwcomm::report_html
