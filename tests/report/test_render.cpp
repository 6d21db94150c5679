// The printers of `hwcomm topo`: matrix text, JSON, DOT, tree, device views.
#include <gtest/gtest.h>

#include <sstream>

#include "core/error.hpp"
#include "core/graph_json.hpp"
#include "discover/discover.hpp"
#include "discover/test_support.hpp"
#include "report/topo_json.hpp"
#include "report/topo_matrix.hpp"
#include "report/topo_render.hpp"

using namespace hwcomm;

namespace {
const Graph& minsky() {
    static const Graph g = discover_machine({.input_xml = test::minsky_xml()});
    return g;
}
}  // namespace

TEST(MatrixText, LaidOutLikeNvidiaSmi) {
    std::ostringstream out;
    print_topo_matrix(build_topo_matrix(minsky()), out, false);
    EXPECT_EQ(out.str(),
              "\tGPU0\tGPU1\tGPU2\tGPU3\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\n"
              "GPU0\t X \tNV2\tSYS\tSYS\t0-1,8-9,16-17,24-25\t0\t\tN/A\n"
              "GPU1\tNV2\t X \tSYS\tSYS\t0-1,8-9,16-17,24-25\t0\t\tN/A\n"
              "GPU2\tSYS\tSYS\t X \tNV2\t80-81,88-89,96-97,104-105\t1\t\tN/A\n"
              "GPU3\tSYS\tSYS\tNV2\t X \t80-81,88-89,96-97,104-105\t1\t\tN/A\n");
}

TEST(MatrixText, NicRowsAndLegend) {
    const Graph g = discover_machine({.input_xml = test::wholeio_xml()});
    std::ostringstream out;
    print_topo_matrix(build_topo_matrix(g), out, true);
    const std::string text = out.str();
    EXPECT_NE(text.find("NIC0\tSYS\tPHB\tPIX\t X \n"), std::string::npos) << text;
    EXPECT_NE(text.find("NIC Legend:\n\n  NIC0: mlx5_0\n"), std::string::npos);
    EXPECT_NE(text.find("  NV#  = Connection traversing a bonded set of # NVLinks\n"), std::string::npos);
}

TEST(TopoJson, VersionedSchemaStableIdsAndPaths) {
    const auto doc = topo_to_json(minsky());
    EXPECT_EQ(doc.at("schema"), "hwcomm-topology");
    EXPECT_EQ(doc.at("schema_version"), 1);
    const Graph back = graph_from_json(doc);  // the extra keys do not disturb the reader
    EXPECT_EQ(back.vertices().size(), minsky().vertices().size());
    EXPECT_EQ(back.of_kind(VertexKind::Gpu).size(), 4u);
    EXPECT_TRUE(back.find("pci:0002:00:00.0"));
    EXPECT_TRUE(back.find("numa1"));
    EXPECT_EQ(doc.at("matrix").at("labels"), nlohmann::json({"GPU0", "GPU1", "GPU2", "GPU3"}));
    bool found = false;
    for (const auto& p : doc.at("paths")) {
        if (p.at("a") != "gpu0" || p.at("b") != "gpu1") continue;
        found = true;
        EXPECT_EQ(p.at("class"), "NV2");
        EXPECT_DOUBLE_EQ(p.at("bottleneck_gbps_per_direction").get<double>(), 40.0);
    }
    EXPECT_TRUE(found);
}

TEST(TopoRender, DotTreeDeviceAndPathViews) {
    const std::string dot = render_topology(minsky(), {.format = TopoFormat::Dot});
    EXPECT_EQ(dot.rfind("graph hwcomm {", 0), 0u);
    EXPECT_NE(dot.find("\"gpu0\" -- \"gpu1\" [label=\"NVLink 1.0 x2 40.00 GB/s\""), std::string::npos) << dot;
    const std::string tree = render_topology(minsky(), {});
    EXPECT_NE(tree.find("NVLink:\n  gpu0 -- gpu1  NVLink 1.0 x2 40.00 GB/s per direction\n"), std::string::npos) << tree;
    EXPECT_NE(tree.find("  package1  Package 1"), std::string::npos);
    const std::string path = render_topology(minsky(), {.path = {"gpu0", "gpu2"}});
    EXPECT_EQ(path.substr(0, path.find('\n')), "gpu0 -> gpu2  SYS  bottleneck 40.00 GB/s per direction");
    const std::string device = render_topology(minsky(), {.device = "gpu3"});
    EXPECT_NE(device.find("gpu3 -> gpu2  NV2  bottleneck 40.00 GB/s per direction"), std::string::npos) << device;
}

TEST(TopoRender, UnknownDeviceIsAUsageErrorNamingIt) {
    try {
        render_topology(minsky(), {.device = "gpu7"});
        FAIL() << "no error";
    } catch (const UsageError& e) {
        EXPECT_EQ(std::string(e.what()), "no device 'gpu7' in this topology (GPUs: gpu0, gpu1, gpu2, gpu3)");
    }
    EXPECT_THROW(render_topology(minsky(), {.path = {"gpu0", "nic9"}}), UsageError);
}
