// cpu-latency's DRAM latency against a second pointer chase written here
// independently (no lmbench package exists for lat_mem_rd): Sattolo's
// single-cycle permutation of 64-byte slots holding the next slot's index,
// over the same working set with huge pages asked for, timed by
// std::chrono. Both run in this process in turns, in samples of as many links,
// and the medians are compared. The ratio is asserted only with
// HWCOMM_LATENCY_TOLERANCE=0.05 (the 5%) on a quiet host.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <random>
#include <vector>

#include "cpu_session_test.hpp"
#include "measure/statistics.hpp"
#include "platform/thread_binding.hpp"

using namespace hwcomm;
using hwcomm::test::CpuSessionTest;

namespace {

class IndexChase {
public:
    explicit IndexChase(std::size_t bytes) : slots_(bytes / 64) {
        memory_ = static_cast<std::uint32_t*>(std::aligned_alloc(std::size_t{2} << 20, bytes));
        madvise(memory_, bytes, MADV_HUGEPAGE);
        std::vector<std::uint32_t> perm(slots_);
        for (std::size_t i = 0; i < slots_; ++i) perm[i] = static_cast<std::uint32_t>(i);
        std::mt19937_64 rng(12345);
        for (std::size_t i = slots_ - 1; i > 0; --i) {  // Sattolo: one cycle through every slot
            std::uniform_int_distribution<std::size_t> pick(0, i - 1);
            std::swap(perm[i], perm[pick(rng)]);
        }
        for (std::size_t i = 0; i < slots_; ++i) memory_[i * 16] = perm[i];
    }
    ~IndexChase() { std::free(memory_); }
    double ns_per_load(std::size_t steps) {
        std::uint32_t at = position_;
        const auto t0 = std::chrono::steady_clock::now();
        for (std::size_t i = 0; i < steps; ++i) {
            at = memory_[static_cast<std::size_t>(at) * 16];
            asm volatile("" : "+r"(at) : : "memory");  // every load, in order, between the clock reads
        }
        const auto t1 = std::chrono::steady_clock::now();
        position_ = at;
        return std::chrono::duration<double, std::nano>(t1 - t0).count() / static_cast<double>(steps);
    }

private:
    std::size_t slots_;
    std::uint32_t* memory_ = nullptr;
    std::uint32_t position_ = 0;
};

}  // namespace

TEST_F(CpuSessionTest, DramLatencyAgreesWithAnIndependentChase) {
    const std::size_t bytes = std::size_t{256} << 20;  // >= 4x a 32-64 MiB last-level cache
    auto s = prepare("cpu-latency", {}, bytes);
    IndexChase reference(bytes);
    // The same chase again on its own buffer: on a guest whose memory the host
    // spreads over its sockets, two buffers' pages differ in latency, and this
    // pair shows by how much without any difference of code (one H100 host read
    // cpu-latency 0.83x the reference there, the run's own ladder 1.1x it).
    IndexChase second(bytes);
    const HwlocTopology topo;
    ScopedThreadBinding on_first_core(topo, core_slots_of_numa(topo, node_, false).front());  // where cpu-latency chases
    reference.ns_per_load(1 << 18);  // warm the TLB and the page tables
    second.ns_per_load(1 << 18);
    s->warmup(bytes, "");
    std::vector<double> ours, theirs, seconds;
    // Interleaved, so both see the same host, and in short samples (cpu-latency's
    // are ~5 ms): a long one is preempted on a busy host and counts the wait.
    // Each sample of the reference chases as many links as cpu-latency's did:
    // the two evict each other's lines from the last-level cache in turns, and
    // a chase that ran fewer links per turn keeps fewer of its own there (with
    // 16K links against cpu-latency's ~31K the reference read 6-9% slower on
    // the quiet dev VM, 155 ns for both when each ran alone).
    for (int round = 0; round < 15; ++round) {
        s->reset(bytes, "");
        const Sample sample = s->measure(bytes, "");
        ours.push_back(sample.metrics.at("latency_ns").value);
        ASSERT_EQ(s->verify(bytes, ""), "");
        theirs.push_back(reference.ns_per_load(static_cast<std::size_t>(sample.bytes_per_rep / 8)));
        seconds.push_back(second.ns_per_load(static_cast<std::size_t>(sample.bytes_per_rep / 8)));
    }
    // The medians of the interleaved samples: each chase's fastest sample is the
    // one that found the most of its own lines still in the last-level cache
    // (cpu-latency's first, after its warm-up), not the one the host disturbed
    // least; turn by turn both see the same host and the same cache history.
    const double mine = median_value(ours);
    const double reference_ns = median_value(theirs);
    const double ratio = mine / reference_ns;
    std::printf("cpu-latency %.1f ns (fastest %.1f), independent chase %.1f ns (fastest %.1f), ratio of medians %.3f; "
                "the independent chase on a second buffer %.1f ns (%.3f of the first)\n",
                mine, *std::min_element(ours.begin(), ours.end()), reference_ns,
                *std::min_element(theirs.begin(), theirs.end()), ratio, median_value(seconds),
                median_value(seconds) / reference_ns);
    // On a shared host the two chases' best samples differ by up to 2.5x from
    // one run to the next (measured on the 2-core dev VM at load 10-15): no
    // bound holds there, so the comparison is asserted only where asked for.
    const char* tolerance = std::getenv("HWCOMM_LATENCY_TOLERANCE");
    if (!tolerance) GTEST_SKIP() << "set HWCOMM_LATENCY_TOLERANCE (e.g. 0.05) on a quiet host to assert the ratio";
    EXPECT_NEAR(ratio, 1.0, std::atof(tolerance));
}
