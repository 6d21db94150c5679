// The real binary under mpirun (CTest label "mpi"): 2 and 4 ranks on this one
// host with --node-name overrides, then the gathered cluster file's facts.
// Skips when hwcomm was built without MPI (then --mpi must be a usage error).
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "io/results_file.hpp"

namespace hwcomm {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct Job {
    int exit_code = -1;
    std::string output;  // stdout and stderr
};

Job shell(const std::string& command) {
    Job job;
    FILE* pipe = popen((command + " 2>&1").c_str(), "r");
    if (!pipe) return job;
    char buf[4096];
    while (std::fgets(buf, sizeof buf, pipe)) job.output += buf;
    const int status = pclose(pipe);
    job.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return job;
}

// A directory of this test process, removed when the process ends.
struct ScratchDir {
    fs::path path = fs::temp_directory_path() / ("hwcomm-mpi-test-" + std::to_string(getpid()));
    ScratchDir() { fs::create_directories(path); }
    ~ScratchDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

fs::path scratch(const std::string& name) {
    static const ScratchDir dir;
    return dir.path / name;
}

// mpirun: HWCOMM_MPIEXEC from the environment (Open MPI unpacked into a
// prefix on a GPU machine), else the one CMake found. At most 120 s: a hung
// job fails its test instead of holding CI. osc pt2pt: Open MPI 4.1's osc
// rdma over the vader BTL hung in MPI_Put in 4 of 11 oversubscribed 4-rank
// runs on the dev VM, pt2pt in none of 6 (docs/cluster.md).
std::string mpiexec() {
    const char* v = std::getenv("HWCOMM_MPIEXEC");
    return std::string("OMPI_MCA_osc=pt2pt timeout -k 5 120 ") + (v && *v ? v : HWCOMM_MPIEXEC);
}

// Helpers of the mpirun tests ([[maybe_unused]]: a build without MPI skips them).
// A quick job: one CPU method and three sizes locally, mpi-host between the ranks.
[[maybe_unused]] Job run_cluster_job(int ranks, const fs::path& out, const std::string& env = "") {
    const std::string command =
        "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 " + env + " " + mpiexec() + " --oversubscribe -np " +
        std::to_string(ranks) + (env.empty() ? "" : " -x HWCOMM_TEST_FAIL_RANK") + " " HWCOMM_BINARY
        " run --mpi --node-name 'n%r' --quick --filter method=cpu-read --filter method=mpi-host --max-workers 1"
        " --min-size 4K --max-size 64K -o " + out.string();
    return shell(command);
}

[[maybe_unused]] json load(const fs::path& path) {
    std::ifstream in(path);
    return json::parse(in);
}

std::map<std::string, int> count_by(const json& doc, const std::string& method, const std::string& status) {
    std::map<std::string, int> out;
    for (const auto& r : doc.at("records"))
        if (r.at("method").get<std::string>() == method && r.at("status").get<std::string>() == status)
            ++out[r.at("src").get<std::string>().substr(0, 2)];
    return out;
}

[[maybe_unused]] int count(const json& doc, const std::string& method, const std::string& status) {
    int n = 0;
    for (const auto& [node, c] : count_by(doc, method, status)) n += c;
    return n;
}

#ifdef HWCOMM_TEST_HAVE_MPI

void expect_cluster_file(const json& doc, int ranks) {
    EXPECT_EQ(doc.at("version").get<std::string>(), "2.1");
    EXPECT_TRUE(doc.at("topology").empty());
    EXPECT_TRUE(doc.at("meta").at("run").at("mpi").get<bool>());
    const json& cluster = doc.at("cluster");
    EXPECT_EQ(cluster.at("ranks").get<int>(), ranks);
    EXPECT_TRUE(cluster.at("shared_host").get<bool>());
    EXPECT_EQ(cluster.at("mpi").at("standard").get<std::string>(), "3.1");
    EXPECT_FALSE(cluster.at("mpi").at("cuda_aware_source").get<std::string>().empty());
    ASSERT_EQ(cluster.at("nodes").size(), static_cast<std::size_t>(ranks));
    for (int r = 0; r < ranks; ++r) {
        const json& node = cluster.at("nodes").at(static_cast<std::size_t>(r));
        EXPECT_EQ(node.at("name").get<std::string>(), "n" + std::to_string(r));
        EXPECT_EQ(node.at("rank").get<int>(), r);
        EXPECT_EQ(node.at("shares_host_with").size(), static_cast<std::size_t>(ranks - 1));
        EXPECT_TRUE(node.at("nic_used").is_null());  // shared memory
        EXPECT_FALSE(node.at("topology").at("vertices").empty());
    }
    // all-pairs: N(N-1)/2 pairs in N-1 rounds
    EXPECT_EQ(cluster.at("schedule").at("kind").get<std::string>(), "all-pairs");
    EXPECT_EQ(cluster.at("schedule").at("rounds").size(), static_cast<std::size_t>(ranks - 1));
    for (const auto& r : doc.at("records")) {
        if (r.at("method").get<std::string>() != "mpi-host" || r.at("status").get<std::string>() != "ok") continue;
        EXPECT_TRUE(r.at("context").at("shared_host").get<bool>());
        EXPECT_EQ(r.at("context").at("nodes").size(), 2u);
        for (const auto& p : r.at("points")) {
            EXPECT_TRUE(p.at("verified").get<bool>()) << r.at("key");
            EXPECT_GT(p.at("bandwidth_gbps").get<double>(), 0);
        }
        const bool latency = r.at("params").at("op").get<std::string>() == "sendrecv" &&
                             r.at("params").at("direction").get<std::string>() == "uni";
        EXPECT_EQ(r.at("points").at(0).contains("metrics"), latency) << r.at("key");
        if (latency) {
            EXPECT_GT(r.at("points").at(0).at("metrics").at("latency_us").at("value").get<double>(), 0);
        }
    }
}

TEST(MpiCluster, TwoRanksGatherOneFileWithEveryNodeAndSixInterNodeRecords) {
    const fs::path out = scratch("two.json");
    const Job job = run_cluster_job(2, out);
    ASSERT_EQ(job.exit_code, 0) << job.output;
    const json doc = load(out);
    expect_cluster_file(doc, 2);
    EXPECT_EQ(count(doc, "cpu-read", "ok"), 2);
    EXPECT_EQ(count(doc, "mpi-host", "ok"), 6);  // 1 pair x (sendrecv, put) x (a->b, b->a, bi)
    EXPECT_EQ(count(doc, "mpi-host", "error"), 0);
    EXPECT_NO_THROW(load_results_file(out.string()));  // the project's reader takes it, qualified ids and all
    for (const auto& r : doc.at("records"))
        if (r.at("method").get<std::string>() == "cpu-read") {
            EXPECT_EQ(r.at("context").at("node").get<std::string>(), r.at("src").get<std::string>().substr(0, 2));
            // The host read probe's visits around it, as in `hwcomm run` (run/host_read_probe.hpp).
            EXPECT_GE(r.at("context").at("host_read_gbps").size(), 1u) << r.at("key");
        }
    // Each node's series in its own meta, the file's meta rank 0's: a first and a last visit at least.
    for (const auto& node : doc.at("cluster").at("nodes"))
        EXPECT_GE(node.at("meta").at("run").at("host_read").at("visits").size(), 2u) << node.at("name");
    EXPECT_EQ(doc.at("meta").at("run").at("host_read"), doc.at("cluster").at("nodes").at(0).at("meta").at("run").at("host_read"));
}

TEST(MpiCluster, FourRanksMeasureEveryPair) {
    const fs::path out = scratch("four.json");
    const Job job = run_cluster_job(4, out);
    ASSERT_EQ(job.exit_code, 0) << job.output;
    const json doc = load(out);
    expect_cluster_file(doc, 4);
    EXPECT_EQ(count(doc, "cpu-read", "ok"), 4);
    EXPECT_EQ(count(doc, "mpi-host", "ok"), 36);  // 6 pairs x 6
}

TEST(MpiCluster, AFailingRankIsAnErrorNodeWhileTheOthersComplete) {
    const fs::path out = scratch("fail.json");
    const Job job = run_cluster_job(4, out, "HWCOMM_TEST_FAIL_RANK=2");
    EXPECT_EQ(job.exit_code, 3) << job.output;  // finished, with error records
    const json doc = load(out);
    expect_cluster_file(doc, 4);
    for (const auto& node : doc.at("cluster").at("nodes")) {
        const bool failed = node.at("name").get<std::string>() == "n2";
        EXPECT_EQ(node.at("status").get<std::string>(), failed ? "error" : "ok");
        EXPECT_EQ(node.at("error").get<std::string>().find("HWCOMM_TEST_FAIL_RANK=2") != std::string::npos, failed);
    }
    EXPECT_EQ(count(doc, "rank", "error"), 1);
    EXPECT_EQ(count(doc, "cpu-read", "ok"), 3);
    EXPECT_EQ(count_by(doc, "cpu-read", "ok").count("n2"), 0u);
    EXPECT_EQ(count(doc, "mpi-host", "ok"), 18);     // the 3 pairs without n2
    EXPECT_EQ(count(doc, "mpi-host", "error"), 18);  // the 3 pairs with n2, not measured
    for (const auto& r : doc.at("records"))
        if (r.at("status").get<std::string>() == "error") {  // every error record names the failed node
            EXPECT_NE(r.at("key").get<std::string>().find("n2:"), std::string::npos) << r.at("key");
            EXPECT_NE(r.at("error").get<std::string>().find("HWCOMM_TEST_FAIL_RANK=2"), std::string::npos);
        }
}

TEST(MpiCluster, PlanUnderMpirunPrintsTheScheduleAndMeasuresNothing) {
    const fs::path out = scratch("plan.json");
    const Job job = shell("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 " + mpiexec() +
                          " --oversubscribe -np 3 " HWCOMM_BINARY " run --mpi --plan --quick --node-name 'n%r' -o " +
                          out.string());
    EXPECT_EQ(job.exit_code, 0) << job.output;
    EXPECT_NE(job.output.find("3 node(s), schedule all-pairs, 3 round(s), 3 pair(s)"), std::string::npos) << job.output;
    EXPECT_FALSE(fs::exists(out));
}

#else

TEST(MpiCluster, MpiIsAUsageErrorInABuildWithoutMpi) {
    const Job job = shell(HWCOMM_BINARY " run --mpi --quick -o " + scratch("none.json").string());
    EXPECT_EQ(job.exit_code, 2) << job.output;
    EXPECT_NE(job.output.find("this build has no MPI"), std::string::npos) << job.output;
    GTEST_SKIP() << "hwcomm was built without MPI: the mpirun tests do not apply";
}

#endif

TEST(ClusterPlan, PlanWithNodesNeedsNoMpirun) {
    const Job job = shell(HWCOMM_BINARY " run --plan --nodes 12 --quick");
    EXPECT_EQ(job.exit_code, 0) << job.output;
    EXPECT_NE(job.output.find("12 node(s), schedule ring+random"), std::string::npos) << job.output;
    EXPECT_NE(job.output.find("estimate: about"), std::string::npos) << job.output;
    // Without --nodes, not under mpirun: this node's own plan (issue 21), not the cluster's.
    const Job node = shell(HWCOMM_BINARY " run --plan --quick");
    EXPECT_EQ(node.exit_code, 0) << node.output;
    EXPECT_EQ(node.output.find("schedule"), std::string::npos) << node.output;
    EXPECT_NE(node.output.find("estimate: about"), std::string::npos) << node.output;
}

}  // namespace
}  // namespace hwcomm
