// GPU tests (label "gpu") of um-prefetch, um-demand, zero-copy-read and
// zero-copy-write: rates against the copy engines over the same pair measured
// in the same process (ratios with a wide margin around docs/um.md's
// measurements, never a machine's own speed), data verified, pages where the
// reset and the transfer put them, the managed cap, and the read-check kernel
// finding wrong data and a kernel that did not run.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>

#include "gpu_test_support.hpp"
#include "methods/cuda/common/device_info.hpp"
#include "methods/cuda/common/graph_queries.hpp"
#include "methods/cuda/common/pattern.hpp"
#include "methods/cuda/common/pattern_ops.hpp"
#include "methods/cuda/common/touch_kernels.hpp"
#include "methods/cuda/common/touch_slots.hpp"
#include "methods/cuda/register.hpp"

using namespace hwcomm;
using namespace hwcomm::cuda;

namespace {

struct Measured {
    double gbps = 0;
    Sample sample;
    std::string verify;
    nlohmann::json context;
};

// As the engine does it: warm-up, then reset -> measure -> verify.
Measured measure_once(const char* name, const Graph& g, const Vertex& src, const Vertex& dst, std::size_t bytes,
                      ParamSet params = {}) {
    Registry r;
    register_cuda_methods(r);
    const Characterizer* m = r.find(name);
    EXPECT_NE(m, nullptr) << name;
    if (params.empty()) params = m->parameter_sets(g, src, dst, MethodOptions{}).front();
    auto session = m->prepare(g, src, dst, params, bytes, MethodOptions{});
    session->warmup(bytes, "");
    session->reset(bytes, "");
    Measured out;
    out.sample = session->measure(bytes, "");
    out.verify = session->verify(bytes, "");
    out.context = session->context();
    out.gbps = out.sample.bytes_per_rep * static_cast<double>(out.sample.repetitions) / out.sample.seconds / 1e9;
    std::string what;
    for (const auto& [k, v] : params) what += " " + k + "=" + v;
    std::printf("[ measured ] %s %s->%s%s %zu bytes: %.2f GB/s, %.2f us per page\n", name, src.id.c_str(),
                dst.id.c_str(), what.c_str(), bytes, out.gbps,
                out.sample.metrics.count("time_per_page") ? out.sample.metrics.at("time_per_page").value : 0.0);
    return out;
}

const nlohmann::json& residency(const Measured& m, std::size_t bytes) {
    return m.context.at("residency").at(std::to_string(bytes));
}

constexpr std::size_t kMiB = 1u << 20;

// The copy engines over the same pair and size (pinned host memory, peer access
// where the pair has it): what the link carries, measured in this process.
double ce_gbps_once(const Graph& g, const Vertex& src, const Vertex& dst, std::size_t bytes) {
    if (src.kind == VertexKind::NumaNode)
        return measure_once("memcpy-h2d", g, src, dst, bytes,
                            {{"host_mem", "pinned"}, {"numa", std::to_string(src.os_index)}}).gbps;
    if (dst.kind == VertexKind::NumaNode)
        return measure_once("memcpy-d2h", g, src, dst, bytes,
                            {{"host_mem", "pinned"}, {"numa", std::to_string(dst.os_index)}}).gbps;
    const bool peer = can_access_peer(cuda_ordinal(src), cuda_ordinal(dst));
    return measure_once("memcpy-peer", g, src, dst, bytes, {{"peer", peer ? "on" : "off"}}).gbps;
}

// The link's capacity is the best of three: one cold sample (23.7 of 54.7 GB/s in the first
// memcpy-h2d of a process on an H100, device call 1) would make the ceiling a floor.
double ce_gbps(const Graph& g, const Vertex& src, const Vertex& dst, std::size_t bytes) {
    double best = 0.0;
    for (int i = 0; i < 3; ++i) best = std::max(best, ce_gbps_once(g, src, dst, bytes));
    return best;
}

// The best of three: a floor compared with the link's capacity must not fail on
// one sample the host slowed down (a zero-copy read of registered memory once
// gave 23.2 of 51 GB/s on an H100 host that gave 51 in every later record).
Measured measure_best(const char* name, const Graph& g, const Vertex& src, const Vertex& dst, std::size_t bytes,
                      const ParamSet& params) {
    Measured best;
    for (int i = 0; i < 3; ++i) {
        Measured m = measure_once(name, g, src, dst, bytes, params);
        const std::string wrong = best.verify.empty() ? m.verify : best.verify;  // any failed check stays
        if (i == 0 || m.gbps > best.gbps) best = std::move(m);
        best.verify = wrong;
    }
    return best;
}

// docs/um.md, nvidia-h200-x2: zero-copy 0.92-0.95 of the copy engines, prefetch
// 0.29-0.76, demand faulting 0.10-0.25. The bounds leave a factor 2-3 below and
// say what physics says above: the same link, no faster than its copy engines
// (plus the noise of one sample).
constexpr double kSameLinkCeiling = 1.25;

}  // namespace

TEST(UmGpu, PrefetchHostToGpuIsFastVerifiedAndMovesEveryPageOffTheHost) {
    REQUIRE_GPUS(1);
    const Graph g = live_graph();
    const std::size_t bytes = 256 * kMiB;
    const Measured m = measure_best("um-prefetch", g, first_numa(g), *g.find("gpu0"), bytes, {});
    EXPECT_EQ(m.verify, "");
    const double ce = ce_gbps(g, first_numa(g), *g.find("gpu0"), bytes);
    EXPECT_GE(m.gbps, 0.1 * ce);
    EXPECT_LE(m.gbps, kSameLinkCeiling * ce);
    const auto& r = residency(m, bytes);
    EXPECT_EQ(r.at("on_host_after_reset").get<std::size_t>(), r.at("pages").get<std::size_t>()) << r.dump();
    EXPECT_EQ(r.at("on_host_after_transfer").get<std::size_t>(), 0u) << r.dump();
    EXPECT_EQ(m.context.at("timing_mode").get<std::string>(), "event");
    EXPECT_EQ(m.context.at("managed").at("gpus").at("gpu0").at("concurrent_managed_access").get<int>(), 1);
}

TEST(UmGpu, PrefetchGpuToHostPutsEveryPageOnTheHost) {
    REQUIRE_GPUS(1);
    const Graph g = live_graph();
    const std::size_t bytes = 64 * kMiB;
    // The best of three: one prefetch to the host took 2 us per page (2.05 of 55 GB/s, the host
    // allocating the pages) in the second call on an nvidia-h100-x1 host that passed minutes before.
    const Measured m = measure_best("um-prefetch", g, *g.find("gpu0"), first_numa(g), bytes, {});
    EXPECT_EQ(m.verify, "");
    const double ce = ce_gbps(g, *g.find("gpu0"), first_numa(g), bytes);
    EXPECT_GE(m.gbps, 0.1 * ce);
    EXPECT_LE(m.gbps, kSameLinkCeiling * ce);
    const auto& r = residency(m, bytes);
    EXPECT_EQ(r.at("on_host_after_reset").get<std::size_t>(), 0u) << r.dump();
    EXPECT_EQ(r.at("on_host_after_transfer").get<std::size_t>(), r.at("pages").get<std::size_t>()) << r.dump();
}

TEST(UmGpu, PrefetchGpuToGpu) {
    REQUIRE_GPUS(2);
    const Graph g = live_graph();
    const Measured m = measure_once("um-prefetch", g, *g.find("gpu0"), *g.find("gpu1"), 256 * kMiB);
    EXPECT_EQ(m.verify, "");
    const double ce = ce_gbps(g, *g.find("gpu0"), *g.find("gpu1"), 256 * kMiB);
    EXPECT_GE(m.gbps, 0.1 * ce);
    EXPECT_LE(m.gbps, kSameLinkCeiling * ce);
}

TEST(UmGpu, DemandGpuReadOfHostPagesAndFirstTouchCost) {
    REQUIRE_GPUS(1);
    const Graph g = live_graph();
    const Measured big = measure_once("um-demand", g, first_numa(g), *g.find("gpu0"), 64 * kMiB);
    EXPECT_EQ(big.verify, "");
    const double ce = ce_gbps(g, first_numa(g), *g.find("gpu0"), 64 * kMiB);
    EXPECT_GE(big.gbps, 0.02 * ce);
    EXPECT_LE(big.gbps, kSameLinkCeiling * ce);
    EXPECT_EQ(residency(big, 64 * kMiB).at("on_host_after_transfer").get<std::size_t>(), 0u)
        << residency(big, 64 * kMiB).dump();
    const Measured page = measure_once("um-demand", g, first_numa(g), *g.find("gpu0"), 4096);
    EXPECT_EQ(page.verify, "");
    // One page's first touch: a GPU fault serviced by the driver, microseconds.
    const double us = page.sample.metrics.at("time_per_page").value;
    EXPECT_GT(us, 1.0);
    EXPECT_LT(us, 10000.0);
}

TEST(UmGpu, DemandCpuReadOfGpuPagesIsWallTimedAndBringsThemHome) {
    REQUIRE_GPUS(1);
    const Graph g = live_graph();
    const std::size_t bytes = 16 * kMiB;
    const Measured m = measure_once("um-demand", g, *g.find("gpu0"), first_numa(g), bytes);
    EXPECT_EQ(m.verify, "");
    EXPECT_EQ(m.context.at("timing_mode").get<std::string>(), "wall");
    EXPECT_GT(m.gbps, 0.0);
    EXPECT_LE(m.gbps, kSameLinkCeiling * ce_gbps(g, *g.find("gpu0"), first_numa(g), bytes));
    const auto& r = residency(m, bytes);
    EXPECT_EQ(r.at("on_host_after_reset").get<std::size_t>(), 0u) << r.dump();
    EXPECT_EQ(r.at("on_host_after_transfer").get<std::size_t>(), r.at("pages").get<std::size_t>()) << r.dump();
}

// No floor against the copy engines here: between two GPUs on NVLink demand
// faulting runs at 2-3.5% of the peer copy (2x H200: 7.65 of 384 GB/s in one
// sample at ba4ebbd, which failed the 2% floor this test had; 11.5-13.7 in the
// default run's ladder), a speed, not a fact. What holds: every byte arrived
// (the check) and no faster than the copy engines on the same link.
TEST(UmGpu, DemandGpuToGpu) {
    REQUIRE_GPUS(2);
    const Graph g = live_graph();
    const Measured m = measure_once("um-demand", g, *g.find("gpu1"), *g.find("gpu0"), 64 * kMiB);
    EXPECT_EQ(m.verify, "");
    const double ce = ce_gbps(g, *g.find("gpu1"), *g.find("gpu0"), 64 * kMiB);
    EXPECT_GT(m.gbps, 0.0);
    EXPECT_LE(m.gbps, kSameLinkCeiling * ce);
}

TEST(UmGpu, ManagedBufferIsCappedAtHalfTheFreeGpuMemory) {
    REQUIRE_GPUS(1);
    const Graph g = live_graph();
    const std::size_t free0 = free_device_memory().at(0);
    Registry r;
    register_cuda_methods(r);
    auto session = r.find("um-prefetch")
                       ->prepare(g, first_numa(g), *g.find("gpu0"), {{"numa", std::to_string(first_numa(g).os_index)}},
                                 std::size_t{1} << 40, MethodOptions{});
    EXPECT_LE(session->max_bytes(), free0 / 2);
    EXPECT_GT(session->max_bytes(), 0u);
    EXPECT_NE(session->context().at("managed").at("cap").get<std::string>().find("limited by half of"),
              std::string::npos);
}

TEST(UmGpu, SampleWithoutTransferFailsVerification) {
    REQUIRE_GPUS(1);
    const Graph g = live_graph();
    Registry r;
    register_cuda_methods(r);
    auto session = r.find("um-prefetch")->prepare(g, *g.find("gpu0"), first_numa(g),
                                                  {{"numa", std::to_string(first_numa(g).os_index)}}, kMiB, {});
    session->reset(kMiB, "");
    EXPECT_NE(session->verify(kMiB, ""), "");
}

TEST(ZeroCopyGpu, HostReadAndWriteOverPcie) {
    REQUIRE_GPUS(1);
    const Graph g = live_graph();
    const Vertex& numa = first_numa(g);
    const std::string node = std::to_string(numa.os_index);
    for (const char* kind : {"pinned", "registered"}) {
        SCOPED_TRACE(kind);
        const ParamSet params{{"host_mem", kind}, {"numa", node}};
        const Measured read = measure_best("zero-copy-read", g, numa, *g.find("gpu0"), 256 * kMiB, params);
        EXPECT_EQ(read.verify, "");
        const double ce_in = ce_gbps(g, numa, *g.find("gpu0"), 256 * kMiB);
        EXPECT_GE(read.gbps, 0.5 * ce_in);
        EXPECT_LE(read.gbps, kSameLinkCeiling * ce_in);
        const Measured write = measure_best("zero-copy-write", g, *g.find("gpu0"), numa, 256 * kMiB, params);
        EXPECT_EQ(write.verify, "");
        const double ce_out = ce_gbps(g, *g.find("gpu0"), numa, 256 * kMiB);
        EXPECT_GE(write.gbps, 0.5 * ce_out);
        EXPECT_LE(write.gbps, kSameLinkCeiling * ce_out);
    }
}

TEST(ZeroCopyGpu, PeerPullAndPush) {
    REQUIRE_GPUS(2);
    if (!can_access_peer(0, 1) || !can_access_peer(1, 0)) GTEST_SKIP() << "no peer access between gpu0 and gpu1";
    const Graph g = live_graph();
    const Measured pull = measure_once("zero-copy-read", g, *g.find("gpu1"), *g.find("gpu0"), 256 * kMiB);
    EXPECT_EQ(pull.verify, "");
    const double ce_pull = ce_gbps(g, *g.find("gpu1"), *g.find("gpu0"), 256 * kMiB);
    EXPECT_GE(pull.gbps, 0.5 * ce_pull);
    EXPECT_LE(pull.gbps, kSameLinkCeiling * ce_pull);
    const Measured push = measure_once("zero-copy-write", g, *g.find("gpu0"), *g.find("gpu1"), 256 * kMiB);
    EXPECT_EQ(push.verify, "");
    const double ce_push = ce_gbps(g, *g.find("gpu0"), *g.find("gpu1"), 256 * kMiB);
    EXPECT_GE(push.gbps, 0.5 * ce_push);
    EXPECT_LE(push.gbps, kSameLinkCeiling * ce_push);
}

TEST(ZeroCopyGpu, ReadCheckKernelFindsWrongDataAndAKernelThatDidNotRun) {
    REQUIRE_GPUS(1);
    const std::size_t n = (1 << 20) + 13;
    DeviceBuffer buf(0, n);
    PatternOps ops;
    const std::uint64_t seed = seed_for_size(n, 3);
    ops.fill(BufferRef{nullptr, buf.data(), 0, false}, n, seed, false);
    TouchSlots slots(0, sm_count_of(0));
    Stream s(0);
    slots.poison();
    EXPECT_NE(slots.check(n).find("did not run"), std::string::npos);
    launch_read_check(s.get(), buf.data(), n, seed, slots.data(), slots.sm_count());
    s.synchronize();
    EXPECT_EQ(slots.check(n), "");
    ASSERT_EQ(cudaMemset(buf.data() + 4096, 0, 16), cudaSuccess);  // two words
    ASSERT_EQ(cudaMemset(buf.data() + n - 1, 0, 1), cudaSuccess);  // one tail byte (unless it was 0)
    slots.poison();
    launch_read_check(s.get(), buf.data(), n, seed, slots.data(), slots.sm_count());
    s.synchronize();
    const std::string msg = slots.check(n);
    EXPECT_TRUE(msg.rfind("3 words", 0) == 0 || msg.rfind("2 words", 0) == 0) << msg;
}
