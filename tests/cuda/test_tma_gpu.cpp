// GPU tests (label "gpu") of issue 22 items 3 and 6: the TMA bulk-copy methods
// beside the copy engines and copy kernels of the same pairs, measured in the
// same process (ratios with a wide margin, never a machine's own speed); the
// TMA latency beside the SM chase; the latency under load beside the unloaded
// chase of the same record. On a GPU without the bulk-copy unit (before
// sm_90) the TMA records are skipped with the reason.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <vector>

#include "core/error.hpp"
#include "gpu_test_support.hpp"
#include "methods/cuda/common/tma_kernels.hpp"
#include "methods/cuda/gpumem/gpumem_methods.hpp"
#include "methods/cuda/register.hpp"
#include "run/engine.hpp"

using namespace hwcomm;
using namespace hwcomm::cuda;

namespace {

constexpr std::size_t kMiB = 1u << 20;

// The median of three verified samples of `m` from `src` to `dst`, as the
// engine takes them; GB/s. Three, not one: once on an H100 (76c5947) a lone
// sm-copy-h2d sample read 23.2 GB/s beside TMA's 50.9, and the next process
// 50.7; one transient sample must not decide a ratio, as it would not a record.
double measured_gbps(const LiveCuda& live, const std::string& method, const std::string& src, const std::string& dst,
                     std::size_t bytes) {
    const Characterizer& m = live.method(method);
    const Vertex &s = live.vertex(src), &d = live.vertex(dst);
    auto session = m.prepare(live.graph, s, d, m.parameter_sets(live.graph, s, d, MethodOptions{}).front(), bytes,
                             MethodOptions{});
    std::vector<double> gbps;
    for (int i = 0; i < 3; ++i) gbps.push_back(gbps_of(verified_sample(*session, bytes, method + " " + src + "->" + dst)));
    std::sort(gbps.begin(), gbps.end());
    std::printf("[ measured ] %s %s->%s %zu MiB: %.1f GB/s (median of %.1f, %.1f, %.1f)\n", method.c_str(),
                src.c_str(), dst.c_str(), bytes / kMiB, gbps[1], gbps[0], gbps[1], gbps[2]);
    return gbps[1];
}

#define REQUIRE_TMA()                                                         \
    do {                                                                      \
        REQUIRE_GPUS(1);                                                      \
        if (const std::string why = why_no_tma(0); !why.empty()) GTEST_SKIP() << why; \
    } while (0)

}  // namespace

TEST(TmaGpu, LocalCopyIsVerifiedAndMovesAtTheCopyEnginesOrderOfRate) {
    REQUIRE_TMA();
    const LiveCuda live;
    const double ce = measured_gbps(live, "memcpy-d2d", "gpu0", "gpu0", 256 * kMiB);
    const double tma = measured_gbps(live, "tma-copy-d2d", "gpu0", "gpu0", 256 * kMiB);
    std::printf("[ measured ] TMA local / CE local = %.3f (issue 22 target on H100/H200: >= 1)\n", tma / ce);
    // Both read and write the same HBM: the same order of rate (the target, >= 1, is a benchmark's).
    EXPECT_GE(tma, 0.5 * ce);
    EXPECT_LE(tma, 1.5 * ce);
}

// The grid is ceil(tiles / tiles per block): sizes below one tile, a single
// block with fewer tiles than a block copies, blocks with unequal tile counts
// and a short last tile, each with a tail of bytes % 16 done by one thread;
// a local copy in both its L2 variants.
TEST(TmaGpu, EveryByteIsCopiedWhateverTheGridAndTail) {
    REQUIRE_TMA();
    const LiveCuda live;
    const Graph& g = live.graph;
    const Vertex& gpu = live.vertex("gpu0");
    const Characterizer& m = live.method("tma-copy-d2d");
    const ParamSet params = m.parameter_sets(g, gpu, gpu, MethodOptions{}).front();
    for (const std::size_t bytes : {std::size_t{1}, std::size_t{17}, 3 * kTmaTileBytes + 5,
                                    (9 * kTmaTilesPerBlock + 1) * kTmaTileBytes + 16 + 3}) {
        auto session = m.prepare(g, gpu, gpu, params, bytes, MethodOptions{});
        ASSERT_EQ(session->variants(), (std::vector<std::string>{kTmaLocalPlainVariant, kTmaLocalHintedVariant}));
        for (const std::string& variant : session->variants()) {
            session->reset(bytes, variant);
            (void)session->measure(bytes, variant);
            EXPECT_EQ(session->verify(bytes, variant), "") << bytes << " bytes, " << variant;
        }
    }
}

// A local copy's record measures both L2 variants at every size and each
// point keeps the faster, naming it; a peer copy has one shape.
TEST(TmaGpu, ALocalCopyKeepsTheFasterOfItsTwoL2VariantsAtEachSize) {
    REQUIRE_TMA();
    const LiveCuda live;
    const Graph& g = live.graph;
    const Characterizer& m = live.method("tma-copy-d2d");
    PlannedRecord p{&m, g.find("gpu0"), g.find("gpu0"), {}, "tma-copy-d2d|gpu0|gpu0|"};
    RunOptions o;
    o.sizes = {1 << 20, 64 * kMiB};
    o.stopping.min_samples = 3;
    o.stopping.time_budget_s = 0.1;
    const Record rec = *measure_record(g, p, o);
    ASSERT_EQ(rec.status, "ok") << rec.error;
    ASSERT_EQ(rec.points.size(), 2u);
    for (const Point& pt : rec.points) {
        EXPECT_TRUE(pt.verified);
        ASSERT_EQ(pt.variants.size(), 2u) << pt.bytes;
        const VariantResult& faster =
            pt.variants[0].bandwidth_gbps >= pt.variants[1].bandwidth_gbps ? pt.variants[0] : pt.variants[1];
        EXPECT_EQ(pt.best_variant, faster.variant) << pt.bytes;
        EXPECT_DOUBLE_EQ(pt.bandwidth_gbps, faster.bandwidth_gbps) << pt.bytes;
        std::printf("[ measured ] tma-copy-d2d gpu0 %zu MiB: %s %.1f GB/s, %s %.1f GB/s\n",
                    static_cast<std::size_t>(pt.bytes / kMiB), pt.variants[0].variant.c_str(),
                    pt.variants[0].bandwidth_gbps, pt.variants[1].variant.c_str(), pt.variants[1].bandwidth_gbps);
    }
    if (g.of_kind(VertexKind::Gpu).size() < 2 || !m.applicable(g, *g.find("gpu0"), *g.find("gpu1")).ok) return;
    auto peer = m.prepare(g, *g.find("gpu0"), *g.find("gpu1"), m.parameter_sets(g, *g.find("gpu0"), *g.find("gpu1"),
                                                                                 MethodOptions{}).front(),
                          1 << 20, MethodOptions{});
    EXPECT_EQ(peer->variants(), std::vector<std::string>{""});
}

// The local shape caps the blocks resident per SM by the shared memory each
// block asks for (docs/benchmarks.md "Twenty-first session"): the cap fits an
// SM, one block more does not; uncapped shapes ask for the stages they use.
TEST(TmaGpu, ALocalCopyAsksForTheSharedMemoryThatCapsItsResidentBlocks) {
    REQUIRE_TMA();
    ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
    int per_sm = 0, reserved = 0;
    ASSERT_EQ(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0), cudaSuccess);
    ASSERT_EQ(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, 0), cudaSuccess);
    for (const TmaCopyShape shape : {kTmaLocalPlain, kTmaLocalHinted}) {
        const std::size_t bytes = tma_shared_bytes_per_block(shape);
        const auto n = static_cast<std::size_t>(shape.resident_blocks_per_sm);
        const auto sm = static_cast<std::size_t>(per_sm), block = bytes + static_cast<std::size_t>(reserved);
        std::printf("[ measured ] local shape (l2_hints %d): %zu B of shared memory a block, %d B per SM\n",
                    shape.l2_hints, bytes, per_sm);
        EXPECT_GE(bytes, kTmaTileBytes);  // holds its tile
        EXPECT_LE(n * block, sm);         // the cap fits
        EXPECT_GT((n + 1) * block, sm);   // one more does not
    }
    EXPECT_EQ(tma_shared_bytes_per_block({false, 4, 0}), kTmaStages * kTmaTileBytes);
    EXPECT_EQ(tma_shared_bytes_per_block({true, 1, 0}), kTmaTileBytes);
}

TEST(TmaGpu, HostAndPeerCopiesAreVerifiedBesideTheCopyKernels) {
    REQUIRE_TMA();
    const LiveCuda live;
    const std::string numa = live.first_numa().id;
    const double h2d = measured_gbps(live, "tma-copy-h2d", numa, "gpu0", 256 * kMiB);
    const double sm_h2d = measured_gbps(live, "sm-copy-h2d", numa, "gpu0", 256 * kMiB);
    const double d2h = measured_gbps(live, "tma-copy-d2h", "gpu0", numa, 256 * kMiB);
    const double sm_d2h = measured_gbps(live, "sm-copy-d2h", "gpu0", numa, 256 * kMiB);
    // The same PCIe link and mapped memory: within a factor 2 of the copy kernel either way.
    EXPECT_GE(h2d, 0.5 * sm_h2d);
    EXPECT_LE(h2d, 2.0 * sm_h2d);
    EXPECT_GE(d2h, 0.5 * sm_d2h);
    EXPECT_LE(d2h, 2.0 * sm_d2h);
    if (gpu_count() >= 2 && can_access_peer(1, 0)) {
        const double peer = measured_gbps(live, "tma-copy-d2d", "gpu0", "gpu1", 256 * kMiB);
        const double sm_peer = measured_gbps(live, "sm-copy-d2d", "gpu0", "gpu1", 256 * kMiB);
        EXPECT_GE(peer, 0.5 * sm_peer);
        EXPECT_LE(peer, 2.0 * sm_peer);
    }
}

TEST(TmaGpu, BulkCopyLatencyIsNoShorterThanAnSmLoadFromTheSameMemory) {
    REQUIRE_TMA();
    const Graph g = live_graph();
    const Vertex& gpu = *g.find("gpu0");
    auto latency_ns = [&](const Characterizer& m, const Vertex& dst) {
        auto s = m.prepare(g, gpu, dst, m.parameter_sets(g, gpu, dst, {}).front(), 256 * kMiB, MethodOptions{});
        return verified_sample(*s, 256 * kMiB, m.name()).metrics.at("latency_ns").value;
    };
    const auto sm = gpumem::make_gpumem_latency();
    const auto tma = gpumem::make_tma_latency();
    for (const Vertex* dst : {&gpu, &first_numa(g)}) {
        const double a = latency_ns(*sm, *dst), b = latency_ns(*tma, *dst);
        std::printf("[ measured ] 256 MiB chase gpu0->%s: SM load %.0f ns, TMA bulk copy %.0f ns\n", dst->id.c_str(), a, b);
        // The bulk copy fetches from the same memory, then completes on an mbarrier.
        EXPECT_GE(b, 0.9 * a) << dst->id;
    }
}

// An older GPU: the device says so at prepare, the record is skipped with the reason.
TEST(TmaGpu, AGpuWithoutTheBulkCopyUnitIsSkippedWithTheReason) {
    REQUIRE_GPUS(1);
    const std::string why = why_no_tma(0);
    if (why.empty()) GTEST_SKIP() << "gpu 0 has the bulk-copy unit";
    const LiveCuda live;
    const Graph& g = live.graph;
    const Characterizer& m = live.method("tma-copy-d2d");
    PlannedRecord p{&m, g.find("gpu0"), g.find("gpu0"), {}, "tma-copy-d2d|gpu0|gpu0|"};
    RunOptions o;
    o.sizes = {1 << 20};
    const Record rec = *measure_record(g, p, o);
    EXPECT_EQ(rec.status, "skipped");
    EXPECT_NE(rec.error.find("needs sm_90"), std::string::npos) << rec.error;
}

// Latency under load (as nvloom): host memory chased while copy-engine copies load the same PCIe link.
TEST(LoadedLatencyGpu, ALoadOnTheChasedPathIsRecordedAndDoesNotShortenTheChase) {
    REQUIRE_GPUS(1);
    const Graph g = live_graph();
    const auto m = gpumem::make_loaded_latency();
    const Vertex& numa = first_numa(g);
    PlannedRecord p{m.get(), g.find("gpu0"), &numa, m->parameter_sets(g, *g.find("gpu0"), numa, {}).front(),
                    "gpumem-loaded-latency|gpu0|" + numa.id};
    RunOptions o;
    o.sizes = {64 * kMiB};
    o.stopping.min_samples = 3;
    o.stopping.time_budget_s = 0.2;
    const Record r = *measure_record(g, p, o);
    ASSERT_EQ(r.status, "ok") << r.error;
    ASSERT_EQ(r.points.size(), 3u);  // load none, same, both at 64 MiB
    std::map<std::string, double> ns;
    for (const Point& pt : r.points) {
        EXPECT_TRUE(pt.verified);
        const std::string level = pt.axes.at("load").get<std::string>();
        ns[level] = pt.metrics.at("latency_ns").value;
        if (level != "none") {
            EXPECT_GT(pt.extras.at("load_gbps"), 0.0) << level;
        }
    }
    std::printf("[ measured ] gpu0->%s 64 MiB chase: none %.0f ns, same %.0f ns, both %.0f ns\n", numa.id.c_str(),
                ns["none"], ns["same"], ns["both"]);
    // Queueing behind the load's data can only add to a round trip on the same link.
    EXPECT_GE(ns["same"], 0.95 * ns["none"]);
    EXPECT_GE(ns["both"], 0.95 * ns["none"]);
    // The record names its load lanes: the chase, and both directions' copies.
    EXPECT_EQ(r.lanes.size(), 3u);
}

// host_mem=huge (issue 22 item 4): the pages the kernel really gave are in the record, and the copy engines
// move them as they move other page-locked memory; a node without huge pages is skipped with the reason.
TEST(HugePagesGpu, HugePageHostMemoryRecordsWhatItGotOrIsSkippedWithTheReason) {
    REQUIRE_GPUS(1);
    const LiveCuda live;
    const Graph& g = live.graph;
    const Characterizer& h2d = live.method("memcpy-h2d");
    const Vertex& numa = live.first_numa();
    const std::string node = std::to_string(numa.os_index);
    std::unique_ptr<TransferSession> huge;
    try {
        huge = h2d.prepare(g, numa, *g.find("gpu0"), {{"host_mem", "huge"}, {"numa", node}}, 256 * kMiB, {});
    } catch (const Unavailable& e) {
        EXPECT_NE(std::string(e.what()).find("no huge pages"), std::string::npos) << e.what();
        GTEST_SKIP() << e.what();
    }
    const auto facts = huge->context().at("host_buffer").at("huge_pages");
    std::printf("[ measured ] huge pages: %s\n", facts.dump().c_str());
    EXPECT_GT(facts.at("backed_bytes").get<std::size_t>(), 0u);
    EXPECT_GE(facts.at("page_bytes").get<std::size_t>(), 2 * kMiB);
    auto gbps = [](TransferSession& s) { return gbps_of(verified_sample(s, 256 * kMiB, "memcpy-h2d")); };
    auto pinned = h2d.prepare(g, numa, *g.find("gpu0"), {{"host_mem", "pinned"}, {"numa", node}}, 256 * kMiB, {});
    // The best of 5 rounds each, alternating: one sample the host slowed down
    // (pinned 25.5 of 55 GB/s once on an H100 host) says nothing about the pages.
    double a = 0, b = 0;
    for (int round = 0; round < 5; ++round) {
        a = std::max(a, gbps(*huge));
        b = std::max(b, gbps(*pinned));
    }
    std::printf("[ measured ] memcpy-h2d 256 MiB, best of 5: huge %.1f GB/s, pinned %.1f GB/s\n", a, b);
    // The same link and DMA: page-locked memory on 2 MiB pages is no slower than half, no faster than 1.25x.
    EXPECT_GE(a, 0.5 * b);
    EXPECT_LE(a, 1.25 * b);
}
