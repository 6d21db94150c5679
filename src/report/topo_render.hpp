#pragma once
// What `hwcomm topo` prints for a graph: the tree (default), JSON, DOT, the
// nvidia-smi style matrix, one device with its links and paths, or one path.
#include <string>
#include <vector>

#include "core/graph.hpp"

namespace hwcomm {

enum class TopoFormat { Tree, Json, Dot, Matrix };

struct TopoView {
    TopoFormat format = TopoFormat::Tree;
    std::string device;              // --device ID: that vertex, its edges, its paths
    std::vector<std::string> path;   // --path A B: the route from A to B
    bool all = false;                // --all: the tree shows PCI functions that carry nothing too
};

// Throws UsageError naming an id that is not in the graph.
std::string render_topology(const Graph& graph, const TopoView& view);

// Throws UsageError "no device 'gpu7' in this topology (GPUs: gpu0, gpu1)".
const Vertex& require_device(const Graph& graph, const std::string& id);

}  // namespace hwcomm
