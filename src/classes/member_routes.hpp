#pragma once
// The routes a class member stands for: an ordered vertex pair is one route; a
// group record's endpoint ids ("gpu*", "gpu*-gpu1", "gpu0+gpu2", "numa0")
// expand into the routes of its lanes. Graph logic only.
#include <optional>
#include <string>
#include <vector>

#include "core/graph.hpp"

namespace hwcomm {

struct MemberRoute {
    const Vertex* src = nullptr;
    const Vertex* dst = nullptr;
};

// The vertices an endpoint id names, in graph order for "gpu*" (GPUs with a
// CUDA ordinal, in ordinal order; every GPU when none has one). nullopt when
// it names no vertex of the graph.
std::optional<std::vector<const Vertex*>> endpoint_vertices(const Graph& graph, const std::string& id);

// One route per lane: a single end is paired with every vertex of the other
// side; two lists of one length are zipped (pairs-sharing-a-link writes
// "gpu0+gpu1" -> "gpu2+gpu3" for gpu0->gpu2 and gpu1->gpu3). Routes from a
// vertex to itself are dropped from sets ("gpu*" -> "gpu0"). nullopt when an
// id names nothing, or two lists differ in length.
std::optional<std::vector<MemberRoute>> member_routes(const Graph& graph, const std::string& src,
                                                      const std::string& dst);

// True for ids of group records (several vertices on one side).
bool is_group_endpoint(const std::string& id);

}  // namespace hwcomm
