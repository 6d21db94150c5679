#pragma once
// What makes two routes alike: a canonical signature of one route's path (or
// of a set of routes taken at once) and a one-line description for people.
// Used by classify(); graph logic only.
#include <map>
#include <string>
#include <vector>

#include "classes/member_routes.hpp"
#include "core/graph.hpp"

namespace hwcomm {

struct RouteShape {
    std::string signature;
    std::string description;
    bool rates_known = true;
};

// Facts of the graph every signature reads, computed once per classify().
class ShapeContext {
public:
    explicit ShapeContext(const Graph& graph);
    const Graph& graph() const { return graph_; }
    // GPUs in the PCIe subtree of a bridge (its "sharing"); 0 for other vertices.
    int gpus_behind(const std::string& id) const;

private:
    const Graph& graph_;
    std::map<std::string, int> gpus_behind_;
};

// One route. Endpoint descriptions (GPU model, NUMA node with or without
// CPUs), then either the NVLink reach between two GPUs (links, rate, direct
// bond, shared switches, trunks) or the hops of find_path (edge kind, rate,
// PCIe generation x width or NVLink version x links, SMP distance; the kind of
// each vertex on the way and the GPUs behind each bridge), and the NUMA
// relation of a host end (local, or SMP hops away).
RouteShape route_shape(const ShapeContext& context, const Vertex& src, const Vertex& dst);

// A set of routes at once: the multiset of its routes' signatures, how many
// distinct sources and destinations, and the edges two or more of them cross
// the same way (with how many).
RouteShape set_shape(const ShapeContext& context, const std::vector<MemberRoute>& routes);

}  // namespace hwcomm
