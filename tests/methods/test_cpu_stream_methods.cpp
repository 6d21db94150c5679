// The STREAM-like CPU methods (cpu-copy, cpu-triad, cpu-write with plain and
// non-temporal stores) and the latency and read/write-mix methods on this
// machine's first NUMA node, driven as the engine drives them.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "cpu_session_test.hpp"
#include "methods/cpu/pointer_chase.hpp"
#include "methods/cpu/stream_kernels.hpp"

using namespace hwcomm;
using hwcomm::test::CpuSessionTest;
using hwcomm::test::sample_and_verify;

TEST_F(CpuSessionTest, CopyTriadAndWriteVerifyWithBothStoresAtOddSizes) {
    for (const char* method : {"cpu-copy", "cpu-triad", "cpu-write"})
        for (const char* stores : {"plain", "nt"}) {
            auto s = prepare(method, {{"stores", stores}});
            const auto ctx = s->context();
            EXPECT_EQ(ctx.at("stores"), stores) << method;
            EXPECT_EQ(ctx.at("kernels").at("isa"), to_string(best_kernels().isa));
            EXPECT_TRUE(ctx.at("placement_verified").get<bool>()) << method;
            for (const auto& v : s->variants())
                for (std::size_t bytes : {std::size_t{8}, std::size_t{72}, std::size_t{4104}, std::size_t{1} << 20}) {
                    s->warmup(bytes, v);
                    EXPECT_EQ(sample_and_verify(*s, bytes, v), "") << method << " " << stores << " " << bytes << " x" << v;
                }
        }
}

TEST_F(CpuSessionTest, ByteConventionsNameStreamsCount) {
    EXPECT_EQ(prepare("cpu-copy", {{"stores", "plain"}})->context().at("byte_convention").at("stream_factor"), 2);
    EXPECT_EQ(prepare("cpu-triad", {{"stores", "nt"}})->context().at("byte_convention").at("stream_factor"), 3);
    EXPECT_EQ(prepare("memcpy", {{"threads", "single"}})->context().at("byte_convention").at("stream_factor"), 2);
    EXPECT_TRUE(prepare("cpu-read")->context().at("byte_convention").at("stream_factor").is_null());
}

TEST_F(CpuSessionTest, AResetWithoutATimedBatchFailsEveryNewMethod) {
    for (const char* method : {"cpu-copy", "cpu-triad"}) {
        auto s = prepare(method, {{"stores", "nt"}});
        s->warmup(4096, s->variants().back());
        s->reset(4096, s->variants().back());
        EXPECT_NE(s->verify(4096, s->variants().back()), "") << method;
    }
}

TEST_F(CpuSessionTest, WorkerCountsAreProbedAtASmallACacheResidentAndTheLargestSize) {
    auto s = prepare("cpu-read", {}, std::size_t{64} << 20);
    const auto probes = s->variant_probe_sizes();
    if (s->variants().size() < 2) {
        EXPECT_TRUE(probes.empty());  // one core: nothing to choose
        return;
    }
    ASSERT_EQ(probes.size(), 3u);
    EXPECT_EQ(probes.front(), 4096u);
    EXPECT_EQ(probes.back(), std::size_t{64} << 20);
    const auto llc = s->context().at("caches").at("llc_bytes").get<std::uint64_t>();
    if (llc) {
        EXPECT_LE(2 * probes[1], llc);  // two buffers of the probe fit the last level
    }
}

TEST(PointerChase, EndsWhereTheCycleSaysAndCatchesAWrongEnd) {
    std::vector<std::uint64_t> memory(1 << 14);  // 128 KiB: 2048 lines
    auto* base = reinterpret_cast<std::byte*>((reinterpret_cast<std::uintptr_t>(memory.data()) + 63) / 64 * 64);
    PointerChase chase;
    chase.lay_out(base, 64 * 2000, 7);
    EXPECT_EQ(chase.lines(), 2000u);
    chase.run(1999);  // one short of a lap: ends on the last position
    EXPECT_EQ(chase.check(), "");
    chase.run(2000 * 3 + 5);  // laps and a remainder
    EXPECT_EQ(chase.check(), "");
    // A chain that is not one cycle through every line ends elsewhere.
    for (std::size_t line = 0; line < 2000; ++line) reinterpret_cast<std::uint64_t*>(base + 64 * line)[1] = 1;
    chase.run(10);
    EXPECT_NE(chase.check(), "");
    EXPECT_THROW(chase.lay_out(base + 8, 4096, 1), MeasurementError);  // not line-aligned
    EXPECT_THROW(chase.lay_out(base, 64, 1), MeasurementError);        // one line is no chain
}

// A sample's chase lasts about the sample time at the calibrated link time, within the bounds.
TEST(PointerChase, CalibratedStepsFillTheSampleTimeWithinTheBounds) {
    EXPECT_EQ(PointerChase::calibrated_steps(100e-9, 5e-3), 50000u);  // 100 ns a link: 50,000 links in 5 ms
    EXPECT_EQ(PointerChase::calibrated_steps(1e-3, 5e-3), PointerChase::kMinSteps);  // slow links: at least the minimum
    EXPECT_EQ(PointerChase::calibrated_steps(0.0, 5e-3), PointerChase::kMaxSteps);   // no time measured: the maximum
    EXPECT_EQ(PointerChase::calibrated_steps(1e-9, 1.0), PointerChase::kMaxSteps);
}

TEST_F(CpuSessionTest, LatencyGrowsFromL1ToDramAndEveryChaseIsChecked) {
    const std::size_t big = std::size_t{128} << 20;
    auto s = prepare("cpu-latency", {}, big);
    const auto ctx = s->context();
    EXPECT_TRUE(ctx.at("chase_buffer").at("huge_pages").at("requested").get<bool>());
    auto latency = [&](std::size_t bytes) {
        s->warmup(bytes, "");
        double best = 1e9;
        for (int i = 0; i < 3; ++i) {
            s->reset(bytes, "");
            const Sample x = s->measure(bytes, "");
            EXPECT_EQ(s->verify(bytes, ""), "") << bytes;
            best = std::min(best, x.metrics.at("latency_ns").value);
        }
        return best;
    };
    const double l1 = latency(16 << 10), dram = latency(big);
    // An L1 hit takes a few cycles, a DRAM miss about a hundred nanoseconds: far apart on any machine.
    EXPECT_GT(dram, 3 * l1) << "16 KiB " << l1 << " ns, 128 MiB " << dram << " ns";
}

TEST_F(CpuSessionTest, LoadedLatencySkipsLoadCountsTheNodeCannotGiveAndMeasuresTheLoad) {
    auto s = prepare("cpu-loaded-latency", {}, std::size_t{16} << 20);
    using Axes = std::map<std::string, nlohmann::json>;
    EXPECT_TRUE(s->axes_apply(Axes{{"load_workers", 0}}));
    EXPECT_FALSE(s->axes_apply(Axes{{"load_workers", 4096}}));
    EXPECT_EQ(s->axes_apply(Axes{{"load_workers", "all"}}), cores_ > 1);
    if (cores_ > 1) {
        EXPECT_FALSE(s->axes_apply(Axes{{"load_workers", static_cast<int>(cores_) - 1}}));  // that is "all"
    }
    const std::size_t bytes = std::size_t{16} << 20;
    for (const Axes& axes : {Axes{{"load_workers", 0}}, Axes{{"load_workers", "all"}}}) {
        if (!s->axes_apply(axes)) continue;
        s->set_axes(axes);
        s->warmup(bytes, "");
        const bool loaded = axes.at("load_workers").is_string();
        double most = 0;  // on a busy 2-core host one sample's load worker may not get the CPU: take a few
        for (int i = 0; i < 5; ++i) {
            s->reset(bytes, "");
            const Sample x = s->measure(bytes, "");
            EXPECT_EQ(s->verify(bytes, ""), "");
            EXPECT_EQ(x.metrics.at("load_workers").value, loaded ? cores_ - 1 : 0);
            most = std::max(most, x.metrics.at("load_gbps").value);
        }
        if (loaded) EXPECT_GT(most, 0.0);
        else EXPECT_EQ(most, 0.0);
    }
}

TEST_F(CpuSessionTest, EveryReadWriteMixVerifiesAndCountsReadsPlusWrites) {
    const std::size_t bytes = std::size_t{1} << 20;
    auto s = prepare("cpu-bandwidth-mix", {}, bytes);
    for (const char* mix : {"read", "3:1", "2:1", "1:1"}) {
        s->set_axes({{"mix", mix}});
        s->warmup(bytes, "");
        s->reset(bytes, "");
        const Sample x = s->measure(bytes, "");
        EXPECT_EQ(s->verify(bytes, ""), "") << mix;
        const unsigned k = mix[0] == 'r' ? 0 : static_cast<unsigned>(mix[0] - '0');
        const double expected = k == 0 ? bytes : (k + 1) * (bytes / (k + 1) / 64 * 64);
        EXPECT_DOUBLE_EQ(x.bytes_per_rep, expected) << mix;
        s->reset(bytes, "");  // a fresh pattern and no batch: the check must fail
        if (k > 0) {
            EXPECT_NE(s->verify(bytes, ""), "") << mix;
        }
    }
    EXPECT_THROW(s->set_axes({{"mix", "5:1"}}), MeasurementError);
}
