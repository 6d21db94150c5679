// `hwcomm topo` end to end: exit codes, one-line errors, atomic output files.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

#include "discover/test_support.hpp"

namespace {

struct Result {
    int code = -1;
    std::string out;  // stdout and stderr together
};

Result run(const std::string& args) {
    const std::string command = std::string(HWCOMM_BINARY) + " " + args + " 2>&1";
    Result r;
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
    if (!pipe) return r;
    std::array<char, 4096> buf{};
    while (std::fgets(buf.data(), buf.size(), pipe.get())) r.out += buf.data();
    const int status = pclose(pipe.release());
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

TEST(TopoCli, MatrixOfMinsky) {
    const Result r = run("topo --input " + hwcomm::test::minsky_xml() + " --matrix");
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("GPU0\t X \tNV2\tSYS\tSYS\t"), std::string::npos) << r.out;
}

TEST(TopoCli, BadInputsExitTwoWithOneLine) {
    Result r = run("topo --input /nonexistent/topo.xml");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.out, "hwcomm: error: cannot read topology file /nonexistent/topo.xml: No such file or directory\n");
    r = run("topo --no-such-option");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
    r = run("topo --input " + hwcomm::test::minsky_xml() + " --device gpu7");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.out, "hwcomm: error: no device 'gpu7' in this topology (GPUs: gpu0, gpu1, gpu2, gpu3)\n");
    r = run("topo --json --matrix --input " + hwcomm::test::minsky_xml());
    EXPECT_EQ(r.code, 2);
}

TEST(TopoCli, OutputFileIsWholeOrAbsent) {
    hwcomm::test::TempDir dir;
    const std::string target = dir.path() + "/minsky.json";
    Result r = run("topo --input " + hwcomm::test::minsky_xml() + " --json --output " + target);
    ASSERT_EQ(r.code, 0) << r.out;
    const auto doc = nlohmann::json::parse(slurp(target));
    EXPECT_EQ(doc.at("schema"), "hwcomm-topology");
    // A failing run leaves the previous file as it was and no temporary behind.
    const std::string before = slurp(target);
    r = run("topo --input /nonexistent.xml --json --output " + target);
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(slurp(target), before);
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), std::filesystem::directory_iterator{}), 1);
}

TEST(TopoCli, OutputRefusesToOverwriteWithoutForce) {
    hwcomm::test::TempDir dir;
    const std::string target = dir.file("kept.txt", "keep me\n");
    Result r = run("topo --input " + hwcomm::test::minsky_xml() + " --matrix -o " + target);
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.out, "hwcomm: error: " + target + " exists; use --force to overwrite it\n");
    EXPECT_EQ(slurp(target), "keep me\n");
    r = run("topo --input " + hwcomm::test::minsky_xml() + " --matrix --force -o " + target);
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_NE(slurp(target).find("GPU0"), std::string::npos);
}

TEST(TopoCli, EmptyFsrootAndForeignNvmlReplayExitTwo) {
    hwcomm::test::TempDir dir;
    Result r = run("topo --fsroot " + dir.path());
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
    // The 2x H200 recording replayed onto the Minsky export: its GPUs are not there.
    r = run("topo --input " + hwcomm::test::minsky_xml() + " --nvml-replay " + hwcomm::test::h200_recording());
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.out.find("was recorded on another machine: its GPU 00000000:00:06.0 is not a GPU of"), std::string::npos) << r.out;
}

TEST(TopoCli, PathsReachNicsAndDisks) {
    const std::string dgx2 = hwcomm::test::fixture("hwloc/dgx2-nvswitch.xml");
    Result r = run("topo --input " + dgx2 + " --path gpu0 net:mlx5_0");
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_EQ(r.out.substr(0, r.out.find('\n')), "gpu0 -> net:mlx5_0  PIX  bottleneck 15.754 GB/s per direction");
    r = run("topo --input " + dgx2 + " --path numa1 disk:nvme0n1");
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_EQ(r.out.substr(0, r.out.find('\n')), "numa1 -> disk:nvme0n1  SYS  bottleneck 3.938 GB/s per direction");
    r = run("topo --input " + dgx2 + " --device nvswitch0");
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_EQ(r.out.rfind("nvswitch0  nvswitch  ", 0), 0u) << r.out;
}

TEST(TopoCli, AllShowsEmptyFunctionsAndListNotesInferredOrdinals) {
    const std::string dgx2 = hwcomm::test::fixture("hwloc/dgx2-nvswitch.xml");
    Result r = run("topo --input " + dgx2 + " --all");
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("PCI device 8086:1563 class 0200"), std::string::npos) << r.out;
    r = run("list --input " + dgx2);
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_EQ(r.out.rfind("note: CUDA ordinals inferred from PCI bus id order (" + dgx2 + " has no CUDA facts)\n", 0), 0u)
        << r.out;
}

// The link classes section (docs/classes.md): in the tree and in --json.
TEST(TopoCli, ListsTheLinkClassesInTextAndJson) {
    const std::string dgx1 = hwcomm::test::fixture("hwloc/dgx1.xml");
    const Result text = run("topo --input " + dgx1);
    EXPECT_EQ(text.code, 0) << text.out;
    EXPECT_NE(text.out.find("\nLink classes ("), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("  c0  32 members  GPU -> GPU, NV1 direct, NVLink 1.0, 20 GB/s\n      gpu0->gpu1, gpu0->gpu2,"),
              std::string::npos)
        << text.out;
    EXPECT_NE(text.out.find("... (20 more; --json lists all)"), std::string::npos);
    const Result json = run("topo --input " + dgx1 + " --json");
    ASSERT_EQ(json.code, 0) << json.out;
    const auto doc = nlohmann::json::parse(json.out);
    const auto& classes = doc.at("link_classes").at("classes");
    ASSERT_EQ(classes.size(), 7u);  // 2 GPU-GPU, 2 + 2 host-GPU, 1 NUMA-NUMA
    std::size_t members = 0;
    for (const auto& c : classes) members += c.at("members").size();
    EXPECT_EQ(members, 56u + 32u + 2u);  // every ordered GPU pair, host<->GPU both ways, numa0<->numa1
}
