#pragma once
// The edges a transfer crosses, with their direction, and the bottleneck the
// topology states for it: what the fair-share model of shared edges and the
// extrapolation to unmeasured pairs stand on. Graph logic only.
#include <map>
#include <string>
#include <vector>

#include "core/graph.hpp"

namespace hwcomm::model {

struct Crossing {
    std::string from, to;       // crossed from -> to
    std::size_t edge = 0;       // graph.edges() index
    std::string name() const { return from + "->" + to; }
};

// Every non-internal edge of the route from src to dst (a peer-off GPU copy:
// through the source GPU's NUMA node to the destination). Empty when either
// id is not in the graph or they are not connected.
std::vector<Crossing> route_crossings(const Graph& graph, const std::string& method, const std::string& src,
                                      const std::string& dst, const std::map<std::string, std::string>& params);

struct PathBottleneck {
    double gbps = 0;            // 0: the topology states no rate on the way
    std::string what;           // "NVLink 4.0 x18", "staged: PCIe 5.0 x16", "2 x ..." for duplex
    std::string edge;           // the edge "a->b" of the smallest stated rate
};
PathBottleneck path_bottleneck(const Graph& graph, const std::string& method, const std::string& src,
                               const std::string& dst, const std::map<std::string, std::string>& params);

}  // namespace hwcomm::model
