#pragma once
// Transfers under load: the set U of the study's model M(C, U). What
// `hwcomm run --under-load SPEC` asks for (parsed and resolved against the
// graph before anything is measured), and the default load scenarios that
// follow from the graph: routes that share an edge (crossed the same way) or
// the host side of one NUMA node. Graph logic only, no CUDA.
#include <cstddef>
#include <string>
#include <vector>

#include "core/graph.hpp"
#include "methods/shared_links.hpp"

namespace hwcomm {

// One --under-load SPEC as written:
//   memcpy-h2d NUMA->GPU | memcpy-d2h GPU->NUMA | memcpy-peer GPU->GPU
//   all-to-host [NUMA] | host-to-all [NUMA] | all-to-one GPU | one-to-all GPU
struct LoadSpec {
    std::string method;
    std::string src, dst;  // a fan names its one endpoint in src (host fans: "" = the first host node)
    std::string text;      // as given, for the record
    bool operator==(const LoadSpec&) const = default;
};

// Throws UsageError with a one-line message when malformed.
LoadSpec parse_load_spec(const std::string& text);
// The methods a SPEC may name, for --help and messages.
const std::vector<std::string>& load_spec_methods();

enum class LoadDirection { HostToGpu, GpuToHost, GpuToGpu };

// One background transfer: its route and what moves it.
struct LoadRoute {
    const Vertex* src = nullptr;
    const Vertex* dst = nullptr;
    LoadDirection direction = LoadDirection::HostToGpu;
    std::string spec;  // the SPEC it came from
    std::string label() const { return src->id + "->" + dst->id; }
};

// The CUDA GPUs (vertices with a CUDA ordinal, in ordinal order) and the NUMA
// nodes with memory: the endpoints a load can use.
std::vector<const Vertex*> load_gpus(const Graph& graph);
std::vector<const Vertex*> load_host_nodes(const Graph& graph);

// The routes of one spec on `graph`. Throws UsageError when an endpoint is
// unknown, of the wrong kind, or a fan has no lane.
std::vector<LoadRoute> resolve_load_spec(const Graph& graph, const LoadSpec& spec);
// Every spec's routes, in order (run/run_options.cpp resolves a run's once).
std::vector<LoadRoute> resolve_load_specs(const Graph& graph, const std::vector<LoadSpec>& specs);

// A resource that several routes of one direction cross: an edge crossed the
// same way, the host side of a NUMA node (its memory and root complex, which
// every host-to-GPU route from it reads through even when each GPU hangs off
// its own host bridge), or a GPU's NVLinks out or in where routes go through
// NVSwitches (a copy spreads over all of the GPU's bonds, not the one switch
// a drawn route crosses).
struct SharedResource {
    std::string label;            // "edge numa0->pci:0000:00:01.0", "host side of numa0", "NVLinks into gpu1 (...)"
    std::vector<Route> routes;    // two or more, in input order
    std::string kind;             // what it is, without ids: "host side", "edge pcie@15.754" (for classes)
};

// For each direction's routes: every resource crossed by two or more of them,
// one per distinct set of routes (the smallest-rate edge names the set).
std::vector<SharedResource> shared_resources(const Graph& graph, const std::vector<Route>& routes,
                                             bool host_side);

// One measurement of a scenario set: `measured` alone (loads empty) or with
// the first loads.size() other routes of `shared` loading it.
struct LoadScenario {
    Route measured;
    std::vector<Route> loads;
    std::string shared;  // the resource's label; "" alone
};

// Every scenario (the exhaustive set): per shared resource of k routes, each
// route with 1 .. k-1 of the others loading it; and each route once alone.
// Grows with the square of the routes per resource; the default scenarios
// come from classes (load_scenarios.hpp).
std::vector<LoadScenario> exhaustive_load_scenarios(const std::vector<SharedResource>& resources);

// Host-to-GPU and GPU-to-host routes between every host node and CUDA GPU.
std::vector<Route> host_to_gpu_routes(const Graph& graph);
std::vector<Route> gpu_to_host_routes(const Graph& graph);

}  // namespace hwcomm
