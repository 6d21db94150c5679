// Invalid UTF-8 in hwloc strings (a latin-1 CPU or GPU model) is decided once,
// at the discovery boundary (issue 25): every string of the graph becomes
// valid UTF-8 and the original bytes stay, escaped, in a note; every printer
// then writes valid output.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/graph_json.hpp"
#include "core/utf8.hpp"
#include "discover/discover.hpp"
#include "discover/test_support.hpp"
#include "discover/valid_text.hpp"
#include "report/topo_render.hpp"

using namespace hwcomm;

namespace {

std::string latin1_export(const test::TempDir& dir) {
    std::ifstream in(test::minsky_xml());
    std::stringstream text;
    text << in.rdbuf();
    std::string xml = text.str();
    for (const auto& [from, to] : {std::pair<std::string, std::string>{"POWER8NVL, altivec", "POWER8NVL caf\xE9, altivec"},
                                   {"Tesla P100-SXM2-16GB", "Tesla P100 G\xFCnther"}})
        for (auto at = xml.find(from); at != std::string::npos; at = xml.find(from, at + to.size()))
            xml.replace(at, from.size(), to);
    return dir.file("latin1.xml", xml);
}

}  // namespace

TEST(ValidText, Latin1HwlocStringsBecomeValidUtf8WithTheOriginalNoted) {
    test::TempDir dir;
    const Graph g = discover_machine({.input_xml = latin1_export(dir), .use_nvml = false, .use_cuda = false});
    const Vertex* package = g.find("package0");
    ASSERT_TRUE(package);
    EXPECT_EQ(package->attrs.at("cpu_model"), "POWER8NVL caf\xEF\xBF\xBD, altivec supported");
    bool noted = false;
    for (const std::string& n : g.notes) noted = noted || n.find("original \"POWER8NVL caf\\xe9, altivec supported\"") != std::string::npos;
    EXPECT_TRUE(noted);
    for (const Vertex& v : g.vertices()) {
        EXPECT_TRUE(is_valid_utf8(v.id) && is_valid_utf8(v.name)) << escape_bytes(v.name);
        if (v.gpu) {
            EXPECT_EQ(v.gpu->model.find('\xFC'), std::string::npos);
        }
    }
    // Every printer: JSON (which throws on invalid UTF-8), tree, DOT.
    EXPECT_TRUE(is_valid_utf8(graph_to_json(g).dump()));
    for (const TopoFormat format : {TopoFormat::Tree, TopoFormat::Dot, TopoFormat::Matrix})
        EXPECT_TRUE(is_valid_utf8(render_topology(g, {.format = format})));
}

TEST(ValidText, ValidGraphsAreLeftAsTheyAre) {
    Graph g;
    g.add_vertex({.id = "numa0", .kind = VertexKind::NumaNode, .name = "NUMA node 0 \xE2\x86\x92"});
    EXPECT_EQ(make_graph_text_valid(g), 0);
    EXPECT_TRUE(g.notes.empty());
}

TEST(ValidText, IdsThatDifferOnlyInInvalidBytesStayDistinct) {
    Graph g;
    g.add_vertex({.id = "disk:sd\xE9", .kind = VertexKind::BlockDevice, .name = "sd\xE9"});
    g.add_vertex({.id = "disk:sd\xE8", .kind = VertexKind::BlockDevice, .name = "sd\xE8"});
    g.add_vertex({.id = "numa0", .kind = VertexKind::NumaNode});
    g.add_edge({.a = "numa0", .b = "disk:sd\xE9", .kind = EdgeKind::Attach});
    EXPECT_EQ(make_graph_text_valid(g), 2);  // the two names
    ASSERT_TRUE(g.find("disk:sd\\xe9") && g.find("disk:sd\\xe8"));
    EXPECT_EQ(g.edges().front().b, "disk:sd\\xe9");
    EXPECT_EQ(g.find("disk:sd\\xe9")->name, "sd\xEF\xBF\xBD");
}
