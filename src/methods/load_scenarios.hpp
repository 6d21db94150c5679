#pragma once
// Load scenarios and lane-count sweeps from identical-link classes (issue 21
// item 7, issue 27 item 2). Shared resources (under_load.hpp) fall into
// classes: two resources are alike when they are the same kind of thing
// (the host side of a NUMA node, or an edge of one kind and rate) and the
// routes crossing them form the same class of route sets (classes/). One
// representative resource per class is measured:
//   under-load  per class of routes crossing it, one route alone and with
//               1, half and all of the other routes loading it
//   lane-sweep  1, 2, ..., all of its routes at once (per-lane and aggregate
//               bandwidth: the model's capacity as a function of lanes)
// The counts grow with the number of classes, not with the square of the
// routes. Graph logic only, no CUDA.
#include <string>
#include <vector>

#include "core/graph.hpp"
#include "methods/under_load.hpp"

namespace hwcomm {

struct ResourceClass {
    std::string signature;                     // the resource's kind and its route set's class
    std::string description;                   // one line for people
    std::vector<const SharedResource*> members;  // members.front() is the representative
};

// Classes of `resources` (pointers into it), in the order of their representatives.
std::vector<ResourceClass> resource_classes(const Graph& graph, const std::vector<SharedResource>& resources);

// The default under-load scenarios: per resource class, on its representative,
// one route per class of the routes crossing it, alone and with the first 1,
// half (rounded up) and all of the others loading it. Duplicates once.
std::vector<LoadScenario> class_load_scenarios(const Graph& graph, const std::vector<SharedResource>& resources);

// One set of routes measured at once.
struct LaneSet {
    std::vector<Route> routes;  // the first lanes.size() routes of the resource, its representative route first
    std::string shared;         // the resource's label
    std::string src_id, dst_id; // as written in the record: "numa0" -> "gpu0+gpu1", "gpu0+gpu1" -> "numa0"
};

// Per resource class, on its representative with k routes: 1, 2, ..., k routes
// at once. Duplicates (a set already planned for another resource) once.
std::vector<LaneSet> lane_sweeps(const Graph& graph, const std::vector<SharedResource>& resources);

// The endpoint ids of a set of routes as records write them (classes/member_routes.hpp).
std::pair<std::string, std::string> route_set_ids(const std::vector<Route>& routes);

}  // namespace hwcomm
