#include "methods/cuda/load/load_resources.hpp"

#include "methods/cuda/common/graph_queries.hpp"

namespace hwcomm::cuda {

std::vector<SharedResource> default_load_resources(const Graph& graph) {
    std::vector<Route> d2d;
    for (const Vertex* a : load_gpus(graph))
        for (const Vertex* b : load_gpus(graph))
            if (a != b && peer_path_in_graph(graph, *a, *b).possible) d2d.push_back({a, b});
    std::vector<SharedResource> resources = shared_resources(graph, host_to_gpu_routes(graph), true);
    for (auto& r : shared_resources(graph, gpu_to_host_routes(graph), true)) resources.push_back(std::move(r));
    for (auto& r : shared_resources(graph, d2d, false)) resources.push_back(std::move(r));
    return resources;
}

}  // namespace hwcomm::cuda
