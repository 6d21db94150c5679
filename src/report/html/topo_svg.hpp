#pragma once
// The machine as a picture: one box per vertex of the graph, laid out as the
// tree of packages, NUMA nodes, bridges and devices (lstopo's habit), NVSwitch
// fabrics below the GPUs, every edge labelled with its theoretical rate and,
// where measured, the achieved large-transfer bandwidth and its fraction,
// coloured by that fraction. Used by `hwcomm report` and `hwcomm topo --svg`.
#include <cstddef>
#include <map>
#include <string>

#include "core/graph.hpp"

namespace hwcomm::report_html {

// The best large-transfer bandwidth seen on one edge and the curve it came from.
struct EdgeMeasure {
    double gbps = 0;
    std::string record_key;
};

// measured: graph.edges() index -> measure (may be empty). A standalone SVG
// document (xmlns set), which the report inlines as is.
std::string topology_svg(const Graph& graph, const std::map<std::size_t, EdgeMeasure>& measured);

}  // namespace hwcomm::report_html
