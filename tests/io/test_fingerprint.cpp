// Resume identity: the fingerprints of the 2x and 4x H200 machines, built
// from their committed NVML recordings, differ and the difference is named.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "discover/gpu_ids.hpp"
#include "discover/nvml_api.hpp"
#include "discover/nvml_source.hpp"
#include "discover/test_support.hpp"
#include "io/fingerprint.hpp"
#include "io/results_file.hpp"
#include "io/results_meta.hpp"

using namespace hwcomm;

namespace {

// One package, one NUMA node with CPUs 0..cpus-1, the GPUs of an NVML recording.
Graph replayed(const std::string& recording, unsigned cpus) {
    Graph g;
    g.add_vertex({.id = "package0", .kind = VertexKind::Package, .os_index = 0});
    Vertex numa{.id = "numa0", .kind = VertexKind::NumaNode, .os_index = 0};
    numa.numa = NumaInfo{};
    numa.numa->cpuset = "0-" + std::to_string(cpus - 1);
    g.add_vertex(numa);
    merge_nvml(g, *nvml::open_nvml_replay(test::fixture(recording)));
    assign_gpu_ids(g);
    return g;
}

const char* kCpu = "Intel(R) Xeon(R) Platinum 8480+";

}  // namespace

TEST(Fingerprint, HoldsGpuUuidsAndPciAddressesNumaCpusetsAndCpuModel) {
    const auto fp = machine_fingerprint(replayed("nvml/h200x2.json", 32), kCpu);
    ASSERT_EQ(fp.at("gpus").size(), 2u);
    EXPECT_EQ(fp.at("gpus")[0].at("pci"), "0000:00:06.0");
    EXPECT_EQ(fp.at("gpus")[1].at("pci"), "0000:00:07.0");
    EXPECT_EQ(fp.at("gpus")[0].at("uuid").get<std::string>().rfind("GPU-", 0), 0u);
    EXPECT_EQ(fp.at("numa_nodes")[0].at("cpuset"), "0-31");
    EXPECT_EQ(fp.at("cpu_model"), kCpu);
    EXPECT_FALSE(fp.contains("host"));
    EXPECT_EQ(fingerprint_difference(fp, fp), "");
}

TEST(Fingerprint, TwoGpuFileIsRefusedOnTheFourGpuMachine) {
    const auto two = machine_fingerprint(replayed("nvml/h200x2.json", 32), kCpu);
    const auto four = machine_fingerprint(replayed("nvml/h200x4.json", 64), kCpu);
    const std::string d = fingerprint_difference(four, two);
    EXPECT_EQ(d.rfind("this machine has 4 GPUs, the file was made on one with 2 (gpu", 0), 0u) << d;
    EXPECT_EQ(d, "this machine has 4 GPUs, the file was made on one with 2 "
                 "(gpu0 0000:00:06.0 GPU-a209f1f8-f6b5-a8c2-34fc-4fd9dbc6d587 absent there)");
    EXPECT_EQ(fingerprint_difference(two, four).rfind("this machine has 2 GPUs, the file was made on one with 4", 0), 0u);
}

TEST(Fingerprint, NamesTheFirstDifference) {
    const auto here = machine_fingerprint(replayed("nvml/h200x2.json", 32), kCpu);
    auto file = here;
    file["gpus"][1]["uuid"] = "GPU-00000000-0000-0000-0000-000000000000";
    EXPECT_NE(fingerprint_difference(here, file).find("GPU-00000000"), std::string::npos);
    file = here;
    file["numa_nodes"][0]["cpuset"] = "0-15";
    EXPECT_EQ(fingerprint_difference(here, file), "NUMA node numa0 has CPUs 0-31 here, the file's numa0 had 0-15");
    file = here;
    file["cpu_model"] = "AMD EPYC 9654";
    EXPECT_EQ(fingerprint_difference(here, file), std::string("this machine's CPU is '") + kCpu +
                                                      "', the file's was 'AMD EPYC 9654'");
    EXPECT_NE(fingerprint_difference(here, nlohmann::json::object()).find("no machine fingerprint"), std::string::npos);
}

TEST(Fingerprint, ResumeRefusesAnotherMachinesFileAndLeavesItUntouched) {
    test::TempDir dir;
    const std::string path = dir.path() + "/two.json";
    ResultsFile f = new_results(replayed("nvml/h200x2.json", 32), {"hwcomm", "run"}, {{"sizes", {4096}}});
    save_results(path, f);
    const auto before = std::filesystem::last_write_time(path);
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    const auto four = this_machine_fingerprint(replayed("nvml/h200x4.json", 64));
    try {
        load_for_resume(path, four);
        FAIL() << "resumed another machine's file";
    } catch (const UsageError& e) {
        const std::string what = e.what();
        EXPECT_EQ(what.rfind("resume refused: this machine has 4 GPUs, the file was made on one with 2", 0), 0u) << what;
    }
    EXPECT_EQ(std::filesystem::last_write_time(path), before);
    std::ifstream again(path);
    std::stringstream text2;
    text2 << again.rdbuf();
    EXPECT_EQ(text2.str(), text.str());
    // The same machine resumes it.
    EXPECT_NO_THROW(load_for_resume(path, this_machine_fingerprint(replayed("nvml/h200x2.json", 32))));
}
