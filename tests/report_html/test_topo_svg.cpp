// The topology picture: one box per vertex, measured edges labelled and
// coloured, the tree layout without overlaps.
#include <gtest/gtest.h>

#include <string>

#include "core/graph_json.hpp"
#include "io/results_file.hpp"
#include "report/html/edge_measures.hpp"
#include "report/html/topo_layout.hpp"
#include "report/html/topo_svg.hpp"

namespace hwcomm::report_html {
namespace {

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

struct Example {
    ResultsFile results = load_results_file(HWCOMM_EXAMPLES "/h200x2/results-default.json.gz");
    Graph graph = graph_from_json(results.topology);
};

TEST(TopoSvg, OneNodePerVertexAndNoOverlap) {
    const Example ex;
    const std::string svg = topology_svg(ex.graph, {});
    EXPECT_EQ(count(svg, "<g class=\"node\""), ex.graph.vertices().size());
    EXPECT_EQ(count(svg, "<path class=\"edge\""), ex.graph.edges().size());
    const TopoLayout layout = layout_topology(ex.graph);
    for (std::size_t i = 0; i < layout.boxes.size(); ++i)
        for (std::size_t j = i + 1; j < layout.boxes.size(); ++j) {
            const auto& a = layout.boxes[i];
            const auto& b = layout.boxes[j];
            const bool apart = a.row != b.row || std::abs(a.x - b.x) >= TopoLayout::kBoxWidth;
            EXPECT_TRUE(apart) << a.id << " overlaps " << b.id;
        }
    // The NVSwitch fabric sits below the GPUs.
    double gpu_row = 0, fabric_row = 0;
    for (const auto& box : layout.boxes) {
        if (box.id == "gpu0") gpu_row = box.row;
        if (box.id == "nvswitch-fabric") fabric_row = box.row;
    }
    EXPECT_GT(fabric_row, gpu_row);
}

TEST(TopoSvg, MeasuredEdgesCarryTheBestLargeTransferBandwidth) {
    const Example ex;
    const auto measured = measured_edges(ex.graph, ex.results);
    const auto& edges = ex.graph.edges();
    std::size_t nvlink = 0, pcie_gpu = 0;
    for (const auto& [index, measure] : measured) {
        const Edge& e = edges[index];
        if (e.kind == EdgeKind::NvLink) {
            ++nvlink;
            EXPECT_GT(measure.gbps, 300);  // peer copies over NVLink 4.0 x18 (478 GB/s stated)
            EXPECT_LT(measure.gbps, e.gbps_per_direction);
        }
        if (e.kind == EdgeKind::Pcie && e.b.rfind("gpu", 0) == 0) {
            ++pcie_gpu;
            EXPECT_GT(measure.gbps, 40);  // pinned copies over PCIe 5.0 x16 (63 GB/s stated)
            EXPECT_LT(measure.gbps, e.gbps_per_direction);
            EXPECT_EQ(measure.record_key.find("duplex"), std::string::npos);
        }
    }
    EXPECT_EQ(nvlink, 2u);
    EXPECT_EQ(pcie_gpu, 2u);
    const std::string svg = topology_svg(ex.graph, measured);
    EXPECT_EQ(count(svg, "GB/s ("), 4u);  // "55.5 GB/s (88%)" on the four measured, rated edges
}

}  // namespace
}  // namespace hwcomm::report_html
