#pragma once
// Which transfers share their bottleneck: for a set of routes (ordered vertex
// pairs), the edge of smallest stated rate on each route's path and the
// direction it is crossed in. Two routes that cross the same bottleneck edge
// in the same direction compete for it (links are full duplex: opposite
// directions do not). Graph logic only, no CUDA.
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/graph.hpp"

namespace hwcomm {

struct Route {
    const Vertex* src = nullptr;
    const Vertex* dst = nullptr;
};

struct Bottleneck {
    std::size_t edge = 0;  // graph.edges() index
    bool a_to_b = true;    // crossed from edge.a to edge.b
    double gbps = 0;
};

// nullopt when the two are not connected or no edge on the way states a rate.
std::optional<Bottleneck> route_bottleneck(const Graph& graph, const Route& route);

struct SharedPair {
    Route first, second;
    Bottleneck shared;
    std::string describe(const Graph& graph) const;  // "both cross pci:...--gpu0 (31.5 GB/s) the same way"
    std::string shared_link(const Graph& graph) const;  // the shared edge the way it is crossed: "sw0->gpu0"
};

// Every unordered pair of `routes` whose bottlenecks are the same edge crossed
// the same way, in input order.
std::vector<SharedPair> pairs_sharing_bottleneck(const Graph& graph, const std::vector<Route>& routes);

}  // namespace hwcomm
