// The cluster section of a results file (version 2.1): the fixtures parse into
// the facts the generator put there, missing fields take defaults, bad input
// is one UsageError line, and qualified endpoints split into node and local id.
#include <gtest/gtest.h>

#include <string>

#include "core/error.hpp"
#include "io/cluster_section.hpp"
#include "io/results_file.hpp"

using namespace hwcomm;
using nlohmann::json;

namespace {

std::string fixture(const std::string& name) { return std::string(HWCOMM_FIXTURES) + "/cluster/" + name; }

std::string error_of(const json& section) {
    try {
        (void)cluster_section_from_json(section);
    } catch (const UsageError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(ClusterSection, FourNodeFixture) {
    const ResultsFile file = load_results_file(fixture("cluster-4node.json.gz"));
    ASSERT_TRUE(is_cluster_file(file));
    const auto c = cluster_section_of(file);
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->ranks, 4);
    EXPECT_FALSE(c->shared_host);
    EXPECT_EQ(c->mpi.version, "4.1.4");
    EXPECT_EQ(c->mpi.standard, "3.1");
    ASSERT_TRUE(c->mpi.cuda_aware.has_value());
    EXPECT_FALSE(*c->mpi.cuda_aware);
    EXPECT_EQ(c->node_names(), (std::vector<std::string>{"node0", "node1", "node2", "node3"}));
    const ClusterNodeInfo* n2 = c->find("node2");
    ASSERT_NE(n2, nullptr);
    EXPECT_EQ(n2->rank, 2);
    EXPECT_EQ(n2->hostname, "h200-c");
    EXPECT_EQ(n2->nics, std::vector<std::string>{"net:eth0"});
    EXPECT_EQ(n2->nic_used, "eth0");  // the interface name, as OMPI_MCA_btl_tcp_if_include pins it
    EXPECT_EQ(n2->status, "ok");
    EXPECT_EQ(n2->topology.at("vertices").size(), 15u);
    EXPECT_EQ(c->schedule.kind, "all-pairs");
    ASSERT_EQ(c->schedule.rounds.size(), 3u);
    EXPECT_EQ(c->schedule.rounds[1][1], (std::pair<std::string, std::string>{"node1", "node3"}));
    EXPECT_DOUBLE_EQ(*c->schedule.estimate_s, 12.5);
    EXPECT_TRUE(file.topology.empty());  // each node's graph lives in its node
}

TEST(ClusterSection, FailedRankAndSharedHost) {
    const auto failed = cluster_section_of(load_results_file(fixture("cluster-4node-error.json.gz")));
    ASSERT_TRUE(failed.has_value());
    const ClusterNodeInfo* n3 = failed->find("node3");
    ASSERT_NE(n3, nullptr);
    EXPECT_EQ(n3->status, "error");
    EXPECT_EQ(n3->error, "rank 3 failed: CUDA error: no CUDA-capable device is detected");
    EXPECT_TRUE(n3->topology.empty());
    EXPECT_EQ(n3->nic_used, "");  // null: unknown

    const auto shared = cluster_section_of(load_results_file(fixture("cluster-shared-host.json.gz")));
    ASSERT_TRUE(shared.has_value());
    EXPECT_TRUE(shared->shared_host);
    EXPECT_EQ(shared->nodes.at(0).shares_host_with, std::vector<std::string>{"node1"});
    EXPECT_EQ(shared->nodes.at(1).hostname, "vm");
}

TEST(ClusterSection, SingleNodeFileHasNone) {
    ResultsFile file;
    EXPECT_FALSE(is_cluster_file(file));
    EXPECT_FALSE(cluster_section_of(file).has_value());
}

TEST(ClusterSection, MissingFieldsTakeDefaults) {
    const ClusterSection c = cluster_section_from_json(json{{"nodes", json::array({json{{"name", "a"}}})}});
    ASSERT_EQ(c.nodes.size(), 1u);
    EXPECT_EQ(c.nodes[0].status, "ok");
    EXPECT_EQ(c.nodes[0].rank, -1);
    EXPECT_TRUE(c.nodes[0].nics.empty());
    EXPECT_FALSE(c.mpi.cuda_aware.has_value());
    EXPECT_EQ(c.ranks, 0);
    EXPECT_FALSE(c.schedule.estimate_s.has_value());
    EXPECT_EQ(cluster_section_from_json(json::object()).nodes.size(), 0u);
}

TEST(ClusterSection, BadInputIsOneUsageErrorLine) {
    EXPECT_EQ(error_of(json::array()), "cluster section: is not an object");
    EXPECT_EQ(error_of(json{{"nodes", 3}}), "cluster section: nodes is not an array");
    EXPECT_EQ(error_of(json{{"nodes", json::array({1})}}), "cluster section: nodes[0] is not an object");
    EXPECT_EQ(error_of(json{{"nodes", json::array({json::object()})}}), "cluster section: nodes[0] has no name");
    EXPECT_EQ(error_of(json{{"nodes", json::array({json{{"name", "a"}}, json{{"name", "a"}}})}}),
              "cluster section: nodes name 'a' twice");
    EXPECT_EQ(error_of(json{{"nodes", json::array({json{{"name", "a"}, {"rank", -1}}})}}),
              "cluster section: nodes[0].rank is not an integer in [0, 2^31)");
    EXPECT_EQ(error_of(json{{"nodes", json::array({json{{"name", "a"}, {"status", "dead"}}})}}),
              "cluster section: nodes[0].status is 'dead', not ok or error");
    EXPECT_EQ(error_of(json{{"nodes", json::array({json{{"name", "a"}, {"nics", json::array({1})}}})}}),
              "cluster section: nodes[0].nics holds something other than strings");
    EXPECT_EQ(error_of(json{{"mpi", json{{"cuda_aware", "yes"}}}}),
              "cluster section: mpi.cuda_aware is not true, false or null");
    EXPECT_EQ(error_of(json{{"schedule", json{{"rounds", json::array({json::array({json::array({"a", "b"})})})}}}}),
              "cluster section: schedule.rounds names 'a', which is not a node");
    EXPECT_EQ(error_of(json{{"ranks", 1e300}}), "cluster section: ranks is not an integer in [0, 2^31)");
}

TEST(ClusterSection, SplitsQualifiedEndpoints) {
    ClusterSection c;
    c.nodes.resize(2);
    c.nodes[0].name = "node07";
    c.nodes[1].name = "node1";
    const EndpointId gpu = split_cluster_endpoint("node07:gpu2", c);
    EXPECT_EQ(gpu.node, "node07");
    EXPECT_EQ(gpu.local, "gpu2");
    const EndpointId pci = split_cluster_endpoint("node1:pci:0000:00:06.0", c);
    EXPECT_EQ(pci.node, "node1");
    EXPECT_EQ(pci.local, "pci:0000:00:06.0");
    const EndpointId foreign = split_cluster_endpoint("node9:gpu0", c);
    EXPECT_EQ(foreign.node, "");
    EXPECT_EQ(foreign.local, "node9:gpu0");
}

TEST(ClusterSection, OneNodeAsAFileOfItsOwn) {
    const ResultsFile file = load_results_file(fixture("cluster-4node.json.gz"));
    const ResultsFile n1 = cluster_node_results(file, *cluster_section_of(file), "node1");
    ASSERT_EQ(n1.records.size(), 8u);  // its node-local records, not the pairs
    EXPECT_EQ(n1.records[1].key, "memcpy-h2d|numa0|gpu0|host_mem=pinned,numa=0");
    EXPECT_EQ(n1.meta.at("host"), "h200-b");
    EXPECT_EQ(n1.topology.at("vertices").size(), 15u);
    EXPECT_THROW(cluster_node_results(file, *cluster_section_of(file), "node9"), UsageError);
}
