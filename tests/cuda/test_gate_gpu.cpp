// GPU tests (label "gpu") of the blocking kernel in the first record of a
// kernel. CUDA loads a kernel's module at its first launch (lazy loading) and
// waits for the device to go idle: queued behind the blocking kernel, that
// launch waited out the gate's timeout and the gate was dropped for the whole
// record (tma-copy-d2d and zero-copy-read on every GPU of the default runs of
// 2026-11-26; um-demand's single-shot session has a gate of its own). ctest
// runs each test in its own process (gtest_discover_tests), so the record
// here is its kernel's first launch; run as one binary, a later test may find
// its kernel loaded by an earlier one. With CUDA_MODULE_LOADING=EAGER every
// kernel is loaded with the context and these tests check nothing: skipped.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "gpu_test_support.hpp"
#include "methods/cuda/common/tma_kernels.hpp"
#include "methods/cuda/register.hpp"

using namespace hwcomm;
using namespace hwcomm::cuda;

namespace {

constexpr const char* kHeld = "blocking kernel holds the stream while copies are queued";
constexpr const char* kHeldOne = "blocking kernel holds the stream while the transfer is queued";

#define REQUIRE_LAZY_LOADING()                                                                   \
    do {                                                                                         \
        const char* loading = std::getenv("CUDA_MODULE_LOADING");                                \
        if (loading && std::string(loading) == "EAGER") GTEST_SKIP() << "CUDA_MODULE_LOADING=EAGER"; \
    } while (0)

// As the engine does a record's first point: warm-up (unless `warm` is
// false, --warmup 0), reset, one sample, verify.
std::string gate_of_first_point(const std::string& method, const std::string& src, const std::string& dst,
                                const ParamSet& wanted, bool warm = true) {
    const Graph g = live_graph();
    Registry r;
    register_cuda_methods(r);
    const Characterizer& m = *r.find(method);
    ParamSet params;
    for (const ParamSet& p : m.parameter_sets(g, *g.find(src), *g.find(dst), MethodOptions{})) {
        bool match = true;
        for (const auto& [k, v] : wanted) match = match && p.count(k) && p.at(k) == v;
        if (match) params = p;
    }
    EXPECT_FALSE(params.empty() && !wanted.empty()) << method << ": no parameter set as asked";
    constexpr std::size_t kBytes = 4096;  // a page (unified memory's smallest size): its time is mostly queueing
    auto session = m.prepare(g, *g.find(src), *g.find(dst), params, 1u << 20, MethodOptions{});
    if (warm) session->warmup(kBytes, "");
    session->reset(kBytes, "");
    (void)session->measure(kBytes, "");
    EXPECT_EQ(session->verify(kBytes, ""), "") << method;
    return session->context().value("gate", "");
}

std::string first_numa() { return live_graph().of_kind(VertexKind::NumaNode).front()->id; }

}  // namespace

TEST(GateGpu, ZeroCopyReadsFirstRecordKeepsTheBlockingKernel) {
    REQUIRE_GPUS(1);
    REQUIRE_LAZY_LOADING();
    EXPECT_EQ(gate_of_first_point("zero-copy-read", first_numa(), "gpu0", {{"host_mem", "pinned"}}), kHeld);
}

TEST(GateGpu, TmaCopysFirstRecordKeepsTheBlockingKernel) {
    REQUIRE_GPUS(1);
    REQUIRE_LAZY_LOADING();
    if (const std::string why = why_no_tma(0); !why.empty()) GTEST_SKIP() << why;
    EXPECT_EQ(gate_of_first_point("tma-copy-d2d", "gpu0", "gpu0", {}), kHeld);
}

TEST(GateGpu, UmDemandsFirstRecordKeepsTheBlockingKernel) {
    REQUIRE_GPUS(1);
    REQUIRE_LAZY_LOADING();
    EXPECT_EQ(gate_of_first_point("um-demand", first_numa(), "gpu0", {}), kHeldOne);
}

// A single-shot session loads its kernel in its first sample when no warm-up
// ran, then resets: the sample verifies its own transfer.
TEST(GateGpu, UmDemandWithoutAWarmUpKeepsTheBlockingKernelAndVerifies) {
    REQUIRE_GPUS(1);
    REQUIRE_LAZY_LOADING();
    EXPECT_EQ(gate_of_first_point("um-demand", first_numa(), "gpu0", {}, false), kHeldOne);
}
