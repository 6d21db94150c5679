// mpi-gpu on a GPU machine (CTest label "gpu"): two ranks on one host, each
// on its own GPU (its local rank's), staged through pinned memory unless the
// MPI library is CUDA-aware. HWCOMM_MPIEXEC names mpirun when it is not where
// CMake found it (Open MPI unpacked into a prefix: scripts/device-mpi.sh).
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <cuda_runtime_api.h>
#include <nlohmann/json.hpp>

namespace hwcomm {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

TEST(MpiGpu, TwoRanksOnTwoGpusMeasureVerifiedMpiGpuRecordsAndSayWhetherTheLibraryIsCudaAware) {
    // Each rank takes its local rank's GPU: one GPU would put both ranks on it.
    int visible = 0;
    if (cudaGetDeviceCount(&visible) != cudaSuccess) visible = 0;
    if (visible < 2) GTEST_SKIP() << "needs two GPUs, this machine shows " << visible;
    const char* env = std::getenv("HWCOMM_MPIEXEC");
    const std::string mpiexec = env && *env ? env : HWCOMM_MPIEXEC;
    const fs::path out = fs::temp_directory_path() / ("hwcomm-mpi-gpu-" + std::to_string(getpid()) + ".json");
    const std::string command = "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout -k 5 120 " + mpiexec +
                                " -np 2 " HWCOMM_BINARY " run --mpi --node-name 'n%r' --quick --filter method=mpi-gpu"
                                " -o " + out.string() + " 2>&1";
    const int status = std::system(command.c_str());
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << command;
    std::ifstream in(out);
    const json doc = json::parse(in);
    fs::remove(out);
    const json& mpi = doc.at("cluster").at("mpi");
    ASSERT_TRUE(mpi.at("cuda_aware").is_boolean()) << mpi.dump();  // Open MPI answers through mpi-ext.h
    const std::string path = mpi.at("cuda_aware").get<bool>() ? "cuda-aware" : "staged";
    std::printf("MPI library: %s; cuda_aware %s (%s)\n", mpi.at("library").get<std::string>().c_str(),
                mpi.at("cuda_aware").dump().c_str(), mpi.at("cuda_aware_source").get<std::string>().c_str());
    int records = 0;
    std::set<std::string> gpus;
    for (const auto& r : doc.at("records")) {
        if (r.at("method").get<std::string>() != "mpi-gpu") continue;
        ++records;
        EXPECT_EQ(r.at("status").get<std::string>(), "ok") << r.dump().substr(0, 400);
        EXPECT_EQ(r.at("params").at("path").get<std::string>(), path);
        EXPECT_TRUE(r.at("context").at("shared_host").get<bool>());
        gpus.insert(r.at("src").get<std::string>());
        ASSERT_FALSE(r.at("points").empty());
        for (const auto& p : r.at("points")) EXPECT_TRUE(p.at("verified").get<bool>()) << r.at("key");
        const auto& last = r.at("points").back();
        std::printf("%s: %llu B %.2f GB/s\n", r.at("key").get<std::string>().c_str(),
                    last.at("bytes").get<unsigned long long>(), last.at("bandwidth_gbps").get<double>());
        // Through host memory (staged) or CUDA IPC: well above 1 GB/s at the largest size on an H200 host.
        EXPECT_GT(last.at("bandwidth_gbps").get<double>(), 1.0) << r.at("key");
    }
    EXPECT_EQ(records, 3);  // n0->n1 uni, bi; n1->n0 uni
    // Each rank on its own GPU: n0:gpuX and n1:gpuY with X != Y.
    ASSERT_EQ(gpus.size(), 2u);
    EXPECT_NE(gpus.begin()->substr(3), std::next(gpus.begin())->substr(3));
}

}  // namespace
}  // namespace hwcomm
