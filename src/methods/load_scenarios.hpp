#pragma once
// Load scenarios and lane-count sweeps from identical-link classes (issue 21
// item 7, issue 27 item 2). Shared resources (under_load.hpp) fall into
// classes: two resources are alike when they are the same kind of thing
// (the host side of a NUMA node, or an edge of one kind and rate) and the
// routes crossing them form the same class of route sets (classes/). One
// representative resource per class is measured:
//   under-load  per class of routes crossing it, one route alone and with
//               1, half and all of the other routes loading it
//   lane-sweep  1, 2, 3, 4, then about 1.5x more each step, and all of its
//               routes at once (per-lane and aggregate bandwidth: the
//               model's capacity as a function of lanes)
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

// The lane counts of a sweep over `routes` routes: every count up to 4, then
// 6, 9, 14, ... (each about 1.5x the last) below `routes`, then `routes`
// (7: 1 2 3 4 6 7; 8: 1 2 3 4 6 8; 16: 1 2 3 4 6 9 14 16). The capacity curve
// (docs/model.md) bends where the lanes' demand reaches the capacity, within
// the first few lanes on the machines measured (the 4x H200 host side at 3-4
// pinned copies, an H100/H200 NVLink port at 1-2 peer copies); past it each
// count adds a point on a flat line. On the 8-GPU DGX H100 plan every count
// was 40 records, 92 s of a 601 s estimate.
std::vector<std::size_t> lane_counts(std::size_t routes);

// Per resource class, on its representative with k routes: lane_counts(k)
// routes at once. Duplicates (a set already planned for another resource) once.
std::vector<LaneSet> lane_sweeps(const Graph& graph, const std::vector<SharedResource>& resources);

// The endpoint ids of a set of routes as records write them (classes/member_routes.hpp).
std::pair<std::string, std::string> route_set_ids(const std::vector<Route>& routes);

}  // namespace hwcomm
