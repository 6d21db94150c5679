// Real device faults during `hwcomm run` (issue 16 item 4), on a GPU machine:
// the test-only fault methods (src/methods/cuda/faults, enabled by
// HWCOMM_TEST_FAULT_METHODS=1) fail an allocation, a peer access, a kernel
// (illegal address: the context is lost) and a GPU that vanishes mid-record.
// Each run must leave a valid, finished results file with the fault recorded
// by its CUDA error's name, and go on as far as the device allows.
// HWCOMM_FAULT_TEST_OUT=DIR keeps the results files.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "cli/cli_helpers.hpp"

using namespace hwcomm::test;
using nlohmann::json;

namespace {

int cuda_gpus() {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) return 0;
    return n;
}

#define REQUIRE_A_GPU() \
    if (cuda_gpus() < 1) GTEST_SKIP() << "needs a CUDA GPU"

const char* const kSmallRun = "run --quick --max-size 1M --filter src=gpu0 --filter dst=gpu0 ";

struct FaultRun {
    Result result;
    json file;
};

FaultRun run_with_faults(const Scratch& s, const std::string& args) {
    ::setenv("HWCOMM_TEST_FAULT_METHODS", "1", 1);
    FaultRun r;
    r.result = run_hwcomm(s, args);
    ::unsetenv("HWCOMM_TEST_FAULT_METHODS");
    r.file = read_json(s / "r.json");  // throws (fails the test) when the file is not whole JSON
    // HWCOMM_FAULT_TEST_OUT=DIR keeps each results file and stderr (DIR/<scratch>[-resumed].json, .stderr.txt).
    if (const char* keep = std::getenv("HWCOMM_FAULT_TEST_OUT"); keep && *keep) {
        const bool resumed = args.find("--resume") != std::string::npos;
        fs::create_directories(keep);
        const fs::path base = fs::path(keep) / (s.dir.filename().string() + (resumed ? "-resumed" : ""));
        fs::copy_file(s / "r.json", base.string() + ".json", fs::copy_options::overwrite_existing);
        std::ofstream(base.string() + ".stderr.txt") << r.result.err;
    }
    return r;
}

const json& record(const json& file, const std::string& key) {
    for (const json& r : file.at("records"))
        if (r.at("key").get<std::string>() == key) return r;
    throw std::runtime_error("no record " + key);
}

std::string str(const json& j, const char* key) { return j.at(key).get<std::string>(); }

std::size_t count_of(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

// Finished, every planned record present, readable by `hwcomm summary`.
void expect_whole_finished_file(const Scratch& s, const json& file) {
    EXPECT_TRUE(file.at("meta").at("run").at("finished").get<bool>());
    EXPECT_EQ(file.at("records").size(), file.at("meta").at("run").at("planned_records").get<std::size_t>());
    EXPECT_EQ(run_hwcomm(s, "summary r.json").code, 0);
}

// The points before kFaultFromBytes (64 KiB) measured and kept, the fault at 64 KiB, nothing after;
// the record names the sticky CUDA error (returned).
std::string expect_points_then_fault(const json& rec) {
    const json& points = rec.at("points");
    EXPECT_EQ(points.size(), 3u) << rec.dump();  // 4 KiB, 16 KiB ok; 64 KiB failed; 256 KiB, 1 MiB never tried
    if (points.size() != 3u) return "";
    EXPECT_EQ(str(points[0], "status"), "ok");
    EXPECT_GT(points[0].at("bandwidth_gbps").get<double>(), 0);
    EXPECT_EQ(str(points[1], "status"), "ok");
    EXPECT_EQ(points[2].at("bytes").get<std::size_t>(), 65536u);
    EXPECT_EQ(str(points[2], "status"), "error");
    const std::string name = str(rec.at("context").at("device_error"), "name");
    EXPECT_EQ(name.rfind("cudaError", 0), 0u) << rec.dump();
    EXPECT_NE(str(rec, "error").find(name), std::string::npos) << str(rec, "error");
    EXPECT_TRUE(rec.at("context").at("device_error").at("context_lost").get<bool>());
    return name;
}

}  // namespace

TEST(GpuFaults, FaultMethodsAreListedOnlyWhenTheTestsAskForThem) {
    REQUIRE_A_GPU();
    Scratch s("fault-list");
    EXPECT_EQ(run_hwcomm(s, "list").out.find("fault-kernel:"), std::string::npos);
    ::setenv("HWCOMM_TEST_FAULT_METHODS", "1", 1);
    const Result listed = run_hwcomm(s, "list");
    ::unsetenv("HWCOMM_TEST_FAULT_METHODS");
    EXPECT_NE(listed.out.find("fault-kernel:"), std::string::npos);
}

TEST(GpuFaults, FailedAllocationAndRefusedPeerAccessAreErrorRecordsAndTheGpuGoesOn) {
    REQUIRE_A_GPU();
    Scratch s("fault-alloc");
    const FaultRun r = run_with_faults(
        s, std::string(kSmallRun) + "--filter method=fault-alloc --filter method=fault-peer --filter method=memcpy-d2d -o r.json");
    EXPECT_EQ(r.result.code, 3) << r.result.err;
    const json& alloc = record(r.file, "fault-alloc|gpu0|gpu0|");
    EXPECT_EQ(str(alloc, "status"), "error");
    EXPECT_NE(str(alloc, "error").find("cudaErrorMemoryAllocation"), std::string::npos) << str(alloc, "error");
    EXPECT_EQ(str(alloc.at("context").at("device_error"), "name"), "cudaErrorMemoryAllocation");
    EXPECT_FALSE(alloc.at("context").at("device_error").at("context_lost").get<bool>());

    const json& peer = record(r.file, "fault-peer|gpu0|gpu0|");
    EXPECT_EQ(str(peer, "status"), "error");
    const std::string peer_error = str(peer.at("context").at("device_error"), "name");
    EXPECT_EQ(peer_error.rfind("cudaError", 0), 0u) << peer.dump();
    EXPECT_NE(str(peer, "error").find(peer_error), std::string::npos);
    EXPECT_FALSE(peer.at("context").at("device_error").at("context_lost").get<bool>());

    // The same GPU, after both faults: measured, every size verified.
    const json& copy = record(r.file, "memcpy-d2d|gpu0|gpu0|");
    EXPECT_EQ(str(copy, "status"), "ok") << copy.dump();
    EXPECT_EQ(copy.at("points").size(), 5u);
    for (const json& p : copy.at("points")) EXPECT_TRUE(p.at("verified").get<bool>());
    EXPECT_FALSE(r.file.at("meta").at("run").contains("device_lost"));
    EXPECT_EQ(count_of(r.result.err, "context is lost"), 0u);
    expect_whole_finished_file(s, r.file);
}

TEST(GpuFaults, KernelFaultEndsTheGpuPartWithOneLineAndCpuRecordsGoOn) {
    REQUIRE_A_GPU();
    Scratch s("fault-kernel");
    const FaultRun r = run_with_faults(s, "run --quick --max-size 1M --filter method=fault-kernel --filter method=memcpy "
                                          "--filter method=memcpy-d2d --filter src=gpu0 --filter src=numa0 "
                                          "--filter dst=gpu0 --filter dst=numa0 -o r.json");
    EXPECT_EQ(r.result.code, 3) << r.result.err;
    // cudaErrorIllegalAddress expected; any sticky error is the same case for the engine.
    const std::string lost = expect_points_then_fault(record(r.file, "fault-kernel|gpu0|gpu0|"));
    EXPECT_EQ(lost, "cudaErrorIllegalAddress");
    // The CPU record after the fault is measured; the GPU record is kept as not measured, naming the loss.
    bool cpu_seen = false;
    for (const json& rec : r.file.at("records"))
        if (str(rec, "method") == "memcpy") {
            cpu_seen = true;
            EXPECT_EQ(str(rec, "status"), "ok") << rec.dump();
        }
    EXPECT_TRUE(cpu_seen);
    const json& d2d = record(r.file, "memcpy-d2d|gpu0|gpu0|");
    EXPECT_EQ(str(d2d, "error_type"), "device_lost");
    EXPECT_NE(str(d2d, "error").find(lost), std::string::npos);
    EXPECT_NE(str(r.file.at("meta").at("run"), "device_lost").find(lost), std::string::npos);
    EXPECT_EQ(count_of(r.result.err, "context is lost"), 1u) << r.result.err;
    EXPECT_EQ(count_of(r.result.err, "warning: cuda"), 0u) << r.result.err;  // releases after the loss stay quiet
    expect_whole_finished_file(s, r.file);
}

TEST(GpuFaults, GpuVanishingMidRecordKeepsItsPointsAndResumeMeasuresTheRest) {
    REQUIRE_A_GPU();
    Scratch s("fault-vanish");
    const FaultRun r = run_with_faults(
        s, std::string(kSmallRun) + "--filter method=fault-vanish --filter method=memcpy-d2d -o r.json");
    EXPECT_EQ(r.result.code, 3) << r.result.err;
    const json& gone = record(r.file, "fault-vanish|gpu0|gpu0|");
    EXPECT_EQ(expect_points_then_fault(gone), "cudaErrorLaunchFailure");
    EXPECT_NE(str(gone, "error").find("test seam"), std::string::npos);
    EXPECT_TRUE(gone.at("points")[0].at("verified").get<bool>());  // real copies before the seam fired
    EXPECT_EQ(str(record(r.file, "memcpy-d2d|gpu0|gpu0|"), "error_type"), "device_lost");
    EXPECT_EQ(count_of(r.result.err, "context is lost"), 1u) << r.result.err;
    expect_whole_finished_file(s, r.file);

    // A new process (the GPU is back): --resume measures the record the loss left out, and only it.
    const FaultRun resumed = run_with_faults(s, "run --resume r.json");
    EXPECT_EQ(resumed.result.code, 3) << resumed.result.err;  // the fault record stays an error
    EXPECT_EQ(str(record(resumed.file, "memcpy-d2d|gpu0|gpu0|"), "status"), "ok");
    EXPECT_EQ(record(resumed.file, "fault-vanish|gpu0|gpu0|").at("points").size(), 3u);
    EXPECT_EQ(resumed.file.at("records").size(), r.file.at("records").size());
    EXPECT_FALSE(resumed.file.at("meta").at("run").contains("device_lost"));
}
