#pragma once
// Where each vertex of the topology picture goes: the tree formed by
// membership, PCIe and attach edges (parent = the edge's `a` end) laid out top
// down, leaves side by side, parents centred above their children; NVSwitches
// and fabrics, reached by NVLink only, in a row below everything.
#include <cstddef>
#include <string>
#include <vector>

#include "core/graph.hpp"

namespace hwcomm::report_html {

struct NodeBox {
    std::string id;
    double x = 0, y = 0;  // top-left corner
    int row = 0;
};

struct TopoLayout {
    std::vector<NodeBox> boxes;            // one per vertex, in graph order
    std::vector<bool> edge_in_tree;        // per graph edge: drawn as a tree elbow
    double width = 0, height = 0;
    static constexpr double kBoxWidth = 150, kBoxHeight = 44;
    static constexpr double kGapX = 18, kGapY = 78;
};

TopoLayout layout_topology(const Graph& graph);

}  // namespace hwcomm::report_html
