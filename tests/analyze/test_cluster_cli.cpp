// Cluster results files end to end (tests/fixtures/cluster, derived from the
// 2x H200 run with anomalies injected): topo FILE shows the nodes, NICs and
// inter-node links; analyze flags node2's H2D and the pair node1-node3;
// summary states % of link from each node's own graph; compare names the
// failed node; a single-node file's topo is its stored graph.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>

#include "cli/cli_helpers.hpp"

using namespace hwcomm::test;

namespace {

const std::string kFixtures = HWCOMM_FIXTURES;
const std::string kDocs = HWCOMM_DOCS;
const std::string kFour = "'" + kFixtures + "/cluster/cluster-4node.json.gz'";
const std::string kError = "'" + kFixtures + "/cluster/cluster-4node-error.json.gz'";
const std::string kShared = "'" + kFixtures + "/cluster/cluster-shared-host.json.gz'";

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

}  // namespace

TEST(ClusterCli, TopoShowsNodesNicsAndLinks) {
    Scratch s("cluster-topo");
    const Result r = run_hwcomm(s, "topo " + kError);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("node2  rank 2  host h200-c  ok  (2 GPUs, 1 NUMA nodes)\n  NIC net:eth0 (eth0)  near numa0  used by MPI\n"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("node3  rank 3  host h200-d  error: rank 3 failed: CUDA error: no CUDA-capable device is detected"),
              std::string::npos);
    EXPECT_NE(r.out.find("  node0 -- node1  10.90 GB/s  mpi-host|node0:numa0|node1:numa0|direction=uni,op=put,"
                         "placement=near-nic\n"),
              std::string::npos);
    EXPECT_EQ(count(r.out, "no usable measurement  6 of 6 records failed"), 3u);

    const Result j = run_hwcomm(s, "topo --json " + kFour);
    ASSERT_EQ(j.code, 0) << j.err;
    const auto doc = nlohmann::json::parse(j.out);
    EXPECT_EQ(doc.at("schema").get<std::string>(), "hwcomm-cluster-topology");
    ASSERT_EQ(doc.at("nodes").size(), 4u);
    EXPECT_EQ(doc.at("nodes").at(1).at("nics").at(0).at("id").get<std::string>(), "net:eth0");
    EXPECT_EQ(doc.at("nodes").at(1).at("nics").at(0).at("used").get<bool>(), true);
    ASSERT_EQ(doc.at("links").size(), 6u);
    EXPECT_NEAR(doc.at("links").at(4).at("best_gbps").get<double>(), 4.36, 0.01);  // node1 -- node3
    EXPECT_EQ(doc.at("links").at(4).at("a").get<std::string>(), "node1");
    EXPECT_EQ(doc.at("links").at(4).at("b").get<std::string>(), "node3");

    const Result dot = run_hwcomm(s, "topo --dot " + kShared);
    ASSERT_EQ(dot.code, 0) << dot.err;
    EXPECT_NE(dot.out.find("\"node0\" -- \"node1\" [label=\"6.11 GB/s (shared host)\"];"), std::string::npos) << dot.out;
    const Result shared = run_hwcomm(s, "topo " + kShared);
    ASSERT_EQ(shared.code, 0) << shared.err;
    EXPECT_NE(shared.out.find("placement=near-nic  shared host: shared memory, not a network\n"), std::string::npos)
        << shared.out;
    EXPECT_NE(shared.out.find("  shares its host with node1\n"), std::string::npos);
}

TEST(ClusterCli, TopoOfOneNodeAndOfASingleNodeFile) {
    Scratch s("cluster-topo-node");
    const Result m = run_hwcomm(s, "topo --matrix --node node2 " + kFour);
    ASSERT_EQ(m.code, 0) << m.err;
    EXPECT_NE(m.out.find("GPU0\t X \tNV18\t0-31\t0\t\tN/A"), std::string::npos) << m.out;
    // A results file of one node: the graph it holds, as topo prints any graph.
    const Result one = run_hwcomm(s, "topo --matrix '" + kDocs + "/examples/h200x2/results-default.json.gz'");
    ASSERT_EQ(one.code, 0) << one.err;
    EXPECT_EQ(one.out, m.out);

    Result bad = run_hwcomm(s, "topo --matrix " + kFour);
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("is a cluster file: --device, --path, --matrix and --svg show one node: add --node"),
              std::string::npos)
        << bad.err;
    bad = run_hwcomm(s, "topo --node node9 " + kFour);
    EXPECT_EQ(bad.code, 2);
    EXPECT_EQ(bad.err, "hwcomm: error: no node 'node9' in this cluster file (nodes: node0, node1, node2, node3)\n");
    bad = run_hwcomm(s, "topo --node node3 " + kError);
    EXPECT_EQ(bad.code, 2);
    EXPECT_EQ(bad.err, "hwcomm: error: node 'node3' holds no readable topology (its rank failed: rank 3 failed: CUDA "
                       "error: no CUDA-capable device is detected)\n");
    bad = run_hwcomm(s, "topo /nonexistent.json");
    EXPECT_EQ(bad.code, 2);
    EXPECT_EQ(count(bad.err, "\n"), 1u) << bad.err;
}

TEST(ClusterCli, AnalyzeFlagsNode2AndPairNode1Node3) {
    Scratch s("cluster-analyze");
    const Result r = run_hwcomm(s, "analyze " + kFour);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("  node2  memcpy-h2d numa0->gpu0 host_mem=pinned,numa=0: 38.45 GB/s, median of 4 54.86 GB/s, "
                         "29.9% below\n"),
              std::string::npos)
        << r.out;
    EXPECT_EQ(count(r.out, "  node2  memcpy-h2d"), 3u);
    EXPECT_EQ(count(r.out, "  node1->node3  mpi-host"), 4u);  // uni and bi, sendrecv and put
    EXPECT_EQ(count(r.out, "  node3->node1  mpi-host"), 2u);  // uni (bi is initiated by the lower rank)
    EXPECT_EQ(count(r.out, ", median of "), 9u);               // nothing else flagged
    EXPECT_NE(r.out.find("a cluster file: the study's tables are made from one node's results"), std::string::npos);

    const Result j = run_hwcomm(s, "analyze --json --cluster-threshold 0.5 " + kError);
    ASSERT_EQ(j.code, 0) << j.err;
    const auto doc = nlohmann::json::parse(j.out);
    ASSERT_EQ(doc.at("cluster").size(), 1u);
    const auto& c = doc.at("cluster").at(0);
    EXPECT_EQ(c.at("threshold").get<double>(), 0.5);
    EXPECT_TRUE(c.at("node_flags").empty());  // 30% is not beyond 50%
    EXPECT_EQ(c.at("nodes").at(3).at("status").get<std::string>(), "error");

    const Result bad = run_hwcomm(s, "analyze --cluster-threshold 1.5 " + kFour);
    EXPECT_EQ(bad.code, 2);
    EXPECT_EQ(bad.err, "hwcomm: error: analyze: --cluster-threshold must be in (0, 1)\n");
}

TEST(ClusterCli, SummaryStatesPercentOfLinkFromEachNodesGraph) {
    Scratch s("cluster-summary");
    const Result r = run_hwcomm(s, "summary " + kFour);
    ASSERT_EQ(r.code, 0) << r.err;
    // The same PCIe 5.0 x16 link on every node: node2's 30% slower H2D shows as a lower share of it.
    EXPECT_EQ(count(r.out, "% PCIe5x16"), 20u) << r.out;  // 5 host<->GPU records on each of 4 nodes
    EXPECT_EQ(count(r.out, "% NV4x18"), 8u);
    EXPECT_NE(r.out.find("memcpy-h2d   node2:numa0-~  pinned             38.4      38.5 @1G  61% PCIe5x16"),
              std::string::npos)
        << r.out;
}

TEST(ClusterCli, CompareNamesTheFailedNode) {
    Scratch s("cluster-compare");
    const Result r = run_hwcomm(s, "compare " + kFour + " " + kError);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("machines differ in GPUs: 8x NVIDIA H200 vs 6x NVIDIA H200\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("machines differ in cluster nodes: node0 ok, node1 ok, node2 ok, node3 ok vs node0 ok, node1 "
                         "ok, node2 ok, node3 error\n"),
              std::string::npos);
    // A: node3's 8 node-local records and its 18 pair records; B: its "rank" error record and the 18 pair
    // records, as errors whose node3 end is its host (no NUMA node known of a node that failed first).
    EXPECT_NE(r.out.find("26 records only in A\n"), std::string::npos);
    EXPECT_NE(r.out.find("19 records only in B\n  rank|node3:host|node3:host|\n"), std::string::npos);
}

TEST(ClusterCli, ReportHasAClusterTable) {
    Scratch s("cluster-report");
    const Result r = run_hwcomm(s, "report " + kError + " -o r.html");
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string page = slurp(s / "r.html");
    EXPECT_EQ(count(page, "<section id=\"cluster\">"), 1u);
    EXPECT_NE(page.find("<tr><td>node3</td><td>3</td><td>h200-d</td><td>error: rank 3 failed: CUDA error: no "
                        "CUDA-capable device is detected</td><td>unknown</td><td>1 (1)</td></tr>"),
              std::string::npos);
    EXPECT_EQ(count(page, "<tr><td>node2</td><td>memcpy-h2d "), 3u);  // node2 flagged, no pair (node3 failed)
    EXPECT_EQ(count(page, "-&gt;node3</td>"), 0u);
    const Result four = run_hwcomm(s, "report " + kFour + " -o four.html");
    ASSERT_EQ(four.code, 0) << four.err;
    EXPECT_EQ(count(slurp(s / "four.html"), "<tr><td>node1-&gt;node3</td><td>mpi-host "), 4u);
    // A file of one node has no cluster section.
    const Result one = run_hwcomm(s, "report '" + kDocs + "/examples/h200x2/results-pageable-wall.json' -o one.html");
    ASSERT_EQ(one.code, 0) << one.err;
    EXPECT_EQ(count(slurp(s / "one.html"), "<section id=\"cluster\">"), 0u);
}

TEST(ClusterCli, AMalformedClusterSectionIsOneLineExitTwo) {
    Scratch s("cluster-bad");
    nlohmann::json doc = {{"schema", "hwcomm-results"}, {"version", "2.1"}, {"meta", nlohmann::json::object()},
                          {"topology", nlohmann::json::object()}, {"records", nlohmann::json::array()},
                          {"cluster", {{"nodes", {{{"name", "a"}}, {{"name", "a"}}}}}}};
    std::ofstream(s / "bad.json") << doc.dump();
    Result r = run_hwcomm(s, "analyze bad.json");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err, "hwcomm: error: analyze: bad.json: cluster section: nodes name 'a' twice\n");
    r = run_hwcomm(s, "topo bad.json");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err, "hwcomm: error: bad.json: cluster section: nodes name 'a' twice\n");
    r = run_hwcomm(s, "summary bad.json");  // a display: the records, without per-node limits
    EXPECT_EQ(r.code, 0) << r.err;
}

TEST(ClusterCli, AnalyzeNodeIsTheStudyOfThatNode) {
    Scratch s("cluster-analyze-node");
    const Result r = run_hwcomm(s, "analyze --json --node node2 " + kFour);
    ASSERT_EQ(r.code, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_NE(doc.at("inputs").at(0).get<std::string>().find("cluster-4node.json.gz[node2]"), std::string::npos);
    bool anisotropy = false;
    for (const auto& cell : doc.at("cells"))
        if (cell.at("table") == "anisotropy" && cell.at("link") == "cpu-gpu" && cell.value("host_alloc", "") == "pinned" &&
            cell.value("locality", "") == "local") {
            anisotropy = true;
            EXPECT_EQ(cell.at("verdict").get<bool>(), true);  // node2's H2D 30% below its D2H
            EXPECT_NEAR(cell.at("effect").get<double>(), -0.295, 0.01);
        }
    EXPECT_TRUE(anisotropy);
    EXPECT_FALSE(doc.at("efficiency").empty());  // node2's own graph states the PCIe limit

    Result bad = run_hwcomm(s, "analyze --node node9 " + kFour);
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("no node 'node9' in this cluster file (nodes: node0, node1, node2, node3)"),
              std::string::npos)
        << bad.err;
    bad = run_hwcomm(s, "analyze --node node2 '" + kDocs + "/examples/h200x2/results-pageable-wall.json'");
    EXPECT_EQ(bad.code, 2);
    EXPECT_EQ(bad.err, "hwcomm: error: analyze: --node needs a cluster results file\n");
}

TEST(ClusterCli, ExportNamesEachRecordsOwnHost) {
    Scratch s("cluster-export");
    const Result r = run_hwcomm(s, "export " + kFour + " --format jsonl -o rows.jsonl");
    ASSERT_EQ(r.code, 0) << r.err;
    std::istringstream lines(slurp(s / "rows.jsonl"));
    std::map<std::string, std::set<std::string>> hosts;  // node of src -> hosts of its rows
    for (std::string line; std::getline(lines, line);) {
        const auto row = nlohmann::json::parse(line);
        const std::string src = row.at("src").get<std::string>();
        hosts[src.substr(0, src.find(':'))].insert(row.at("host").get<std::string>());
    }
    ASSERT_EQ(hosts.size(), 4u);
    EXPECT_EQ(hosts["node0"], std::set<std::string>{"h200-a"});
    EXPECT_EQ(hosts["node3"], std::set<std::string>{"h200-d"});  // not rank 0's host
}

TEST(ClusterCli, ModelFitOfOneNode) {
    Scratch s("cluster-model");
    const Result r = run_hwcomm(s, "model fit --node node2 " + kFour + " -o m.json");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto m = read_json(s / "m.json");
    EXPECT_EQ(m.at("curves").size(), 8u);             // node2's own records
    EXPECT_FALSE(m.at("topology").empty());           // and its graph: extrapolation and shared edges possible
    EXPECT_TRUE(m.at("notes").empty()) << m.at("notes").dump();
    EXPECT_EQ(m.at("curves").at(1).at("key").get<std::string>(), "memcpy-h2d|numa0|gpu0|host_mem=pinned,numa=0");
    // The whole cluster file: every curve, qualified, and the model says it has no topology.
    const Result all = run_hwcomm(s, "model fit " + kFour + " -o all.json");
    ASSERT_EQ(all.code, 0) << all.err;
    const auto whole = read_json(s / "all.json");
    EXPECT_EQ(whole.at("curves").size(), 68u);  // 4 x 8 node records and 6 x 6 pair records
    ASSERT_EQ(whole.at("notes").size(), 1u);
    const Result bad = run_hwcomm(s, "model fit --node node9 " + kFour + " -o x.json");
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("cluster-4node.json.gz: no node 'node9' in this cluster file"), std::string::npos) << bad.err;
}
