// The cluster view on the fixtures of tests/fixtures/cluster (derived from the
// 2x H200 run, anomalies injected): node2's host->GPU copies 30% slower, the
// pair node1-node3 at 40% of the network bandwidth, node3 failed in the
// error variant. The analysis must find exactly those.
#include <gtest/gtest.h>

#include <set>

#include "analyze/cluster.hpp"
#include "io/results_file.hpp"

using namespace hwcomm;
using namespace hwcomm::analyze;

namespace {

ClusterAnalysis analyze_fixture(const std::string& name, double threshold = kClusterDefaultThreshold) {
    const std::string path = std::string(HWCOMM_FIXTURES) + "/cluster/" + name;
    const ResultsFile file = load_results_file(path);
    return analyze_cluster(name, file, *cluster_section_of(file), threshold);
}

}  // namespace

TEST(ClusterAnalyze, FlagsNode2HostToGpuAndPairNode1Node3Only) {
    const ClusterAnalysis a = analyze_fixture("cluster-4node.json.gz");
    EXPECT_EQ(a.node_paths_compared, 8u);  // the 8 node-local paths, each on 4 nodes
    EXPECT_EQ(a.pair_paths_compared, 4u);  // mpi-host sendrecv and put, uni (12 directed pairs) and bi (6)
    ASSERT_EQ(a.node_flags.size(), 3u) << format_cluster_analysis_text(a);
    for (const ClusterDeviation& d : a.node_flags) {
        EXPECT_EQ(d.who, "node2");
        EXPECT_EQ(d.path.method, "memcpy-h2d");
        EXPECT_EQ(d.peers, 4u);
        EXPECT_NEAR(d.below, 0.30, 0.025) << d.key;  // 30% injected, +-2% jitter
    }
    std::set<std::string> flagged_paths;
    for (const ClusterDeviation& d : a.node_flags) flagged_paths.insert(d.path.label());
    EXPECT_EQ(flagged_paths, (std::set<std::string>{"memcpy-h2d numa0->gpu0 host_mem=pageable,numa=0",
                                                    "memcpy-h2d numa0->gpu0 host_mem=pinned,numa=0",
                                                    "memcpy-h2d numa0->gpu1 host_mem=pinned,numa=0"}));
    // The slow link both ways: node1->node3 uni and bi for both ops, node3->node1 uni (bi is the lower rank's).
    ASSERT_EQ(a.pair_flags.size(), 6u) << format_cluster_analysis_text(a);
    std::size_t forward = 0;
    for (const ClusterDeviation& d : a.pair_flags) {
        EXPECT_TRUE(d.who == "node1->node3" || d.who == "node3->node1") << d.who;
        forward += d.who == "node1->node3";
        EXPECT_EQ(d.path.method, "mpi-host");
        EXPECT_EQ(d.peers, d.path.params.at("direction") == "bi" ? 6u : 12u);
        EXPECT_NEAR(d.below, 0.60, 0.025) << d.key;  // 40% of the model bandwidth
    }
    EXPECT_EQ(forward, 4u);
    for (const ClusterNodeState& s : a.nodes) {
        EXPECT_EQ(s.status, "ok");
        EXPECT_EQ(s.records, 8u);
        EXPECT_EQ(s.error_records, 0u);
    }
    EXPECT_TRUE(a.notes.empty());
}

TEST(ClusterAnalyze, LinksAreTheSixPairsWithTheirBestBandwidth) {
    const ClusterAnalysis a = analyze_fixture("cluster-4node.json.gz");
    ASSERT_EQ(a.links.size(), 6u);
    EXPECT_EQ(a.links[0].a, "node0");
    EXPECT_EQ(a.links[0].b, "node1");
    for (const ClusterLink& l : a.links) {
        EXPECT_EQ(l.records, 6u);  // a->b uni and bi, b->a uni, for sendrecv and put
        EXPECT_EQ(l.transport, "");  // hwcomm run --mpi names it only on a shared host
        EXPECT_FALSE(l.shared_host);
        const bool slow = l.a == "node1" && l.b == "node3";
        // Per direction (not bi, which counts both): put is the faster op in the model (10.8 vs 10.5 GB/s),
        // and the slow pair has 40% of it.
        EXPECT_TRUE(l.best_per_direction);
        EXPECT_NEAR(l.best_gbps, slow ? 4.3 : 10.8, slow ? 0.15 : 0.35) << l.a << "-" << l.b;
        EXPECT_NE(l.best_key.find("direction=uni,op=put"), std::string::npos) << l.best_key;
    }
}

TEST(ClusterAnalyze, ThresholdIsAnOption) {
    // At 65% nothing is that far below; at 2% the jitter of the others starts to show.
    EXPECT_TRUE(analyze_fixture("cluster-4node.json.gz", 0.65).node_flags.empty());
    EXPECT_TRUE(analyze_fixture("cluster-4node.json.gz", 0.65).pair_flags.empty());
    EXPECT_GT(analyze_fixture("cluster-4node.json.gz", 0.02).node_flags.size(), 3u);
    EXPECT_THROW(analyze_fixture("cluster-4node.json.gz", 0.0), std::invalid_argument);
}

TEST(ClusterAnalyze, FailedRankIsReportedAndTheOthersStillCompared) {
    const ClusterAnalysis a = analyze_fixture("cluster-4node-error.json.gz");
    ASSERT_EQ(a.nodes.size(), 4u);
    EXPECT_EQ(a.nodes[3].status, "error");
    EXPECT_EQ(a.nodes[3].error, "rank 3 failed: CUDA error: no CUDA-capable device is detected");
    EXPECT_EQ(a.nodes[3].records, 1u);  // the "rank" error record
    EXPECT_EQ(a.nodes[3].error_records, 1u);
    // node2 still stands out among the 3 nodes left; no pair does (node1-node3 failed).
    ASSERT_EQ(a.node_flags.size(), 3u);
    for (const ClusterDeviation& d : a.node_flags) {
        EXPECT_EQ(d.who, "node2");
        EXPECT_EQ(d.peers, 3u);
    }
    EXPECT_TRUE(a.pair_flags.empty());
    EXPECT_EQ(a.pair_paths_compared, 4u);  // the 3 pairs of the 3 nodes left
    std::size_t failed_links = 0;
    for (const ClusterLink& l : a.links) failed_links += l.error_records == 6 && l.best_gbps == 0;
    EXPECT_EQ(failed_links, 3u);
    const std::string text = format_cluster_analysis_text(a);
    EXPECT_NE(text.find("node3: error: rank 3 failed: CUDA error: no CUDA-capable device is detected (1 of 1 node records failed)"),
              std::string::npos)
        << text;
    const auto j = cluster_analysis_to_json(a);
    EXPECT_EQ(j.at("nodes").at(3).at("error").get<std::string>(), "rank 3 failed: CUDA error: no CUDA-capable device is detected");
    EXPECT_EQ(j.at("node_flags").size(), 3u);
}

TEST(ClusterAnalyze, SharedHostIsSaidAndTooFewPairsAreNotCompared) {
    const ClusterAnalysis a = analyze_fixture("cluster-shared-host.json.gz");
    EXPECT_EQ(a.node_paths_compared, 0u);  // 2 nodes: no median to stand out from
    EXPECT_EQ(a.pair_paths_compared, 0u);
    ASSERT_EQ(a.links.size(), 1u);
    EXPECT_TRUE(a.links[0].shared_host);
    EXPECT_EQ(a.links[0].transport, "same host: shared memory, not a network");
    ASSERT_EQ(a.notes.size(), 2u);
    EXPECT_EQ(a.notes[0], "8 path(s) measured by fewer than 3 nodes or pairs: not compared");
    EXPECT_EQ(a.notes[1], "6 inter-node record(s) between ranks of one host: not compared (shared-memory transport, "
                          "not a network)");
}

TEST(ClusterAnalyze, JsonOfTheFourNodeFixture) {
    const auto j = cluster_analysis_to_json(analyze_fixture("cluster-4node.json.gz"));
    EXPECT_EQ(j.at("threshold").get<double>(), 0.15);
    EXPECT_EQ(j.at("nodes").size(), 4u);
    EXPECT_EQ(j.at("links").size(), 6u);
    ASSERT_EQ(j.at("node_flags").size(), 3u);
    EXPECT_EQ(j.at("node_flags").at(0).at("node").get<std::string>(), "node2");
    EXPECT_EQ(j.at("node_flags").at(0).at("method").get<std::string>(), "memcpy-h2d");
    ASSERT_EQ(j.at("pair_flags").size(), 6u);
    EXPECT_EQ(j.at("pair_flags").at(0).at("pair").get<std::string>(), "node1->node3");
    EXPECT_EQ(j.at("mpi").at("cuda_aware").get<bool>(), false);
}

// Files the writer itself made (the mpi branch's hwcomm run --mpi, 4 ranks on
// the 2-core dev VM, trimmed by trim_run.py): the reader agrees with it.
TEST(ClusterAnalyze, RealFourRankRunsOnOneHost) {
    const ClusterAnalysis a = analyze_fixture("run-4rank-shared-host.json.gz");
    ASSERT_EQ(a.nodes.size(), 4u);
    EXPECT_EQ(a.nodes[3].name, "n3");
    EXPECT_TRUE(a.cluster.shared_host);
    EXPECT_EQ(a.node_paths_compared, 1u);  // cpu-read on every node
    EXPECT_TRUE(a.node_flags.empty()) << format_cluster_analysis_text(a);
    EXPECT_EQ(a.pair_paths_compared, 0u);  // shared memory between ranks of one host: not a network
    ASSERT_EQ(a.links.size(), 6u);
    for (const ClusterLink& l : a.links) {
        EXPECT_TRUE(l.shared_host);
        EXPECT_EQ(l.records, 6u);
        EXPECT_GT(l.best_gbps, 0.1);
        EXPECT_EQ(l.transport, "same host: shared memory, not a network");
    }
    ASSERT_EQ(a.notes.size(), 1u);
    EXPECT_EQ(a.notes[0], "36 inter-node record(s) between ranks of one host: not compared (shared-memory transport, "
                          "not a network)");

    const ClusterAnalysis f = analyze_fixture("run-4rank-fail2.json.gz");
    ASSERT_EQ(f.nodes.size(), 4u);
    EXPECT_EQ(f.nodes[2].status, "error");
    EXPECT_EQ(f.nodes[2].error, "HWCOMM_TEST_FAIL_RANK=2: injected failure of this rank's characterization");
    EXPECT_EQ(f.nodes[2].error_records, 1u);
    std::size_t failed_links = 0;
    for (const ClusterLink& l : f.links) failed_links += l.error_records == 6 && l.best_gbps == 0;
    EXPECT_EQ(failed_links, 3u);  // n2 with each of the others
}
