// Tidy top-down tree layout of the topology graph (see topo_layout.hpp).
#include "report/html/topo_layout.hpp"

#include <algorithm>
#include <functional>
#include <map>

namespace hwcomm::report_html {

namespace {

bool is_tree_kind(EdgeKind kind) {
    return kind == EdgeKind::Membership || kind == EdgeKind::Pcie || kind == EdgeKind::Attach;
}

}  // namespace

TopoLayout layout_topology(const Graph& graph) {
    TopoLayout layout;
    const auto& vertices = graph.vertices();
    const auto& edges = graph.edges();
    std::map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < vertices.size(); ++i) index[vertices[i].id] = i;

    // Each vertex keeps its first tree parent; further tree edges are drawn as cross links.
    std::vector<long> parent(vertices.size(), -1);
    std::vector<std::vector<std::size_t>> children(vertices.size());
    layout.edge_in_tree.assign(edges.size(), false);
    for (std::size_t e = 0; e < edges.size(); ++e) {
        const auto a = index.find(edges[e].a), b = index.find(edges[e].b);
        if (a == index.end() || b == index.end() || !is_tree_kind(edges[e].kind)) continue;
        if (parent[b->second] != -1 || a->second == b->second) continue;
        // Refuse a cycle: a must not descend from b.
        bool cycle = false;
        for (long up = static_cast<long>(a->second); up != -1; up = parent[static_cast<std::size_t>(up)])
            if (static_cast<std::size_t>(up) == b->second) cycle = true;
        if (cycle) continue;
        parent[b->second] = static_cast<long>(a->second);
        children[a->second].push_back(b->second);
        layout.edge_in_tree[e] = true;
    }

    layout.boxes.resize(vertices.size());
    const double slot = TopoLayout::kBoxWidth + TopoLayout::kGapX;
    const double row_height = TopoLayout::kBoxHeight + TopoLayout::kGapY;
    double next_leaf_x = 0;
    int deepest = 0;
    std::function<double(std::size_t, int)> place = [&](std::size_t v, int row) -> double {
        deepest = std::max(deepest, row);
        double x;
        if (children[v].empty()) {
            x = next_leaf_x;
            next_leaf_x += slot;
        } else {
            double first = 0, last = 0;
            for (std::size_t k = 0; k < children[v].size(); ++k) {
                const double cx = place(children[v][k], row + 1);
                if (k == 0) first = cx;
                last = cx;
            }
            x = (first + last) / 2;
        }
        layout.boxes[v] = {vertices[v].id, x, row * row_height, row};
        return x;
    };
    // Packages first, then other roots (orphan devices); switches wait for the bottom row.
    std::vector<std::size_t> roots, switches;
    for (std::size_t v = 0; v < vertices.size(); ++v)
        if (parent[v] == -1 && vertices[v].kind == VertexKind::Package) roots.push_back(v);
    for (std::size_t v = 0; v < vertices.size(); ++v) {
        if (parent[v] != -1 || vertices[v].kind == VertexKind::Package) continue;
        if (is_nvswitch(vertices[v].kind) && children[v].empty()) switches.push_back(v);
        else roots.push_back(v);
    }
    for (std::size_t v : roots) place(v, 0);

    // Switches: under the mean position of the vertices they link, spread apart.
    const int switch_row = deepest + 1;
    std::vector<std::pair<double, std::size_t>> wanted;
    for (std::size_t s : switches) {
        double sum = 0;
        int n = 0;
        for (const Edge& e : edges) {
            const std::string& other = e.a == vertices[s].id ? e.b : e.b == vertices[s].id ? e.a : std::string();
            if (auto it = index.find(other); !other.empty() && it != index.end() && !is_nvswitch(vertices[it->second].kind)) {
                sum += layout.boxes[it->second].x;
                ++n;
            }
        }
        wanted.emplace_back(n ? sum / n : next_leaf_x, s);
    }
    std::sort(wanted.begin(), wanted.end());
    double min_x = 0;
    for (auto& [x, s] : wanted) {
        x = std::max(x, min_x);
        min_x = x + slot;
        layout.boxes[s] = {vertices[s].id, x, switch_row * row_height, switch_row};
        next_leaf_x = std::max(next_leaf_x, x + slot);
    }
    const int rows = switches.empty() ? deepest + 1 : switch_row + 1;
    layout.width = std::max(next_leaf_x - TopoLayout::kGapX, TopoLayout::kBoxWidth);
    layout.height = rows * row_height - TopoLayout::kGapY;
    return layout;
}

}  // namespace hwcomm::report_html
