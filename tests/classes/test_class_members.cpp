// Group-record members: endpoint ids of concurrency records ("gpu*",
// "gpu*-gpu1", "gpu0+gpu2") expand into routes, and sets of routes fall into
// classes by their routes' classes and the edges they share.
#include <gtest/gtest.h>

#include "classes/member_routes.hpp"
#include "fixture_graphs.hpp"

using namespace hwcomm;
using namespace hwcomm::test;

namespace {

std::string routes_text(const Graph& g, const std::string& src, const std::string& dst) {
    const auto routes = member_routes(g, src, dst);
    if (!routes) return "none";
    std::string out;
    for (const MemberRoute& r : *routes) out += (out.empty() ? "" : " ") + r.src->id + ">" + r.dst->id;
    return out;
}

}  // namespace

TEST(ClassMembers, EndpointIdsExpandAsRecordsWriteThem) {
    const Graph g = xml_graph("power8gpudistances.xml");
    EXPECT_EQ(routes_text(g, "numa0", "gpu*"), "numa0>gpu0 numa0>gpu1 numa0>gpu2 numa0>gpu3");
    EXPECT_EQ(routes_text(g, "gpu*-gpu1", "gpu1"), "gpu0>gpu1 gpu2>gpu1 gpu3>gpu1");
    EXPECT_EQ(routes_text(g, "gpu*", "gpu1"), "gpu0>gpu1 gpu2>gpu1 gpu3>gpu1");  // no route to itself
    EXPECT_EQ(routes_text(g, "gpu0+gpu1", "gpu2+gpu3"), "gpu0>gpu2 gpu1>gpu3");  // zipped
    EXPECT_EQ(routes_text(g, "numa0", "gpu0+gpu2"), "numa0>gpu0 numa0>gpu2");
    EXPECT_EQ(routes_text(g, "gpu0", "gpu0"), "gpu0>gpu0");  // a pair record of one vertex
    for (auto [s, d] : {std::pair{"gpu9", "gpu0"}, {"gpu0+gpu1", "gpu2+gpu3+numa0"}, {"gpu*x", "numa0"},
                        {"gpu*-gpu9", "gpu0"}, {"gpu0+", "numa0"}, {"gpu*-gpu0-gpu1-gpu2-gpu3", "numa0"}})
        EXPECT_EQ(routes_text(g, s, d), "none") << s << " -> " << d;
}

// Concurrency sets on the DGX-1: both sockets' host-to-all alike; every
// all-to-one alike (the hybrid cube mesh looks the same from every GPU); two
// GPUs behind one PCIe switch against two behind different switches.
TEST(ClassMembers, Dgx1ConcurrencySetsClassifyBySharedEdges) {
    const Graph g = xml_graph("dgx1.xml");
    std::vector<ClassMember> members{{"numa0", "gpu*"}, {"numa1", "gpu*"}};
    for (int i = 0; i < 8; ++i) members.push_back({"gpu*-gpu" + std::to_string(i), "gpu" + std::to_string(i)});
    members.push_back({"numa0", "gpu0+gpu1"});  // one PCIe switch
    members.push_back({"numa0", "gpu2+gpu3"});
    members.push_back({"numa1", "gpu4+gpu5"});
    members.push_back({"numa0", "gpu0+gpu2"});  // two switches of one socket
    const ClassMap map = classify(g, members);
    ASSERT_EQ(map.classes.size(), 4u) << dump(map);
    EXPECT_EQ(class_of(map, "numa0", "gpu*"), class_of(map, "numa1", "gpu*"));
    EXPECT_EQ(map.find({"gpu*-gpu0", "gpu0"})->members.size(), 8u);
    EXPECT_EQ(map.find({"numa0", "gpu0+gpu1"})->members.size(), 3u);
    EXPECT_NE(class_of(map, "numa0", "gpu0+gpu1"), class_of(map, "numa0", "gpu0+gpu2"));
    const LinkClass& fan = *map.find({"numa0", "gpu*"});
    EXPECT_NE(fan.description.find("8 routes at once; 4 x NUMA node -> GPU, local"), std::string::npos) << fan.description;
    EXPECT_NE(fan.signature.find("shared ["), std::string::npos);
}
