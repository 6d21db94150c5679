// Data checks that mean something: verify() must see the bytes of the timed
// batch only. Broken sessions (a copy that moves nothing, a copy of the first
// half only) and batches that never ran must fail; the warm-up's or an earlier
// sample's bytes must not pass for this sample's.
#include <gtest/gtest.h>

#include <cstring>

#include <algorithm>
#include <functional>
#include <set>
#include <thread>

#include "broken_memcpy.hpp"
#include "cpu_session_test.hpp"
#include "methods/cpu/bound_parallel.hpp"
#include "methods/cpu/memcpy_session.hpp"
#include "methods/cpu/pattern.hpp"

using namespace hwcomm;
using hwcomm::test::CpuSessionTest;
using hwcomm::test::sample_and_verify;
using hwcomm::test::CopiesFirstHalf;
using hwcomm::test::CopiesNothing;

namespace {

constexpr std::size_t kBytes = (std::size_t{1} << 20) + 13;  // odd: a tail after the last word

template <class Session>
std::string broken_sample(int node, bool multi) {
    Session s(node, node, kBytes, multi, MethodOptions{});
    s.warmup(kBytes, "");  // the warm-up copies nothing either
    return sample_and_verify(s, kBytes, "");
}

}  // namespace

TEST_F(CpuSessionTest, MemcpyThatCopiesNothingFailsVerification) {
    for (bool multi : {false, true}) {
        const std::string wrong = broken_sample<CopiesNothing>(node_, multi);
        EXPECT_NE(wrong.find("destination byte 0 "), std::string::npos) << wrong;
    }
}

TEST_F(CpuSessionTest, MemcpyThatCopiesTheFirstHalfFailsVerification) {
    for (bool multi : {false, true}) {
        const std::string wrong = broken_sample<CopiesFirstHalf>(node_, multi);
        EXPECT_NE(wrong.find("destination byte " + std::to_string(kBytes / 2) + " "), std::string::npos) << wrong;
    }
}

TEST_F(CpuSessionTest, HonestMemcpyPassesTheSameSequence) {
    for (bool multi : {false, true}) {
        MemcpySession s(node_, node_, kBytes, multi, MethodOptions{});
        s.warmup(kBytes, "");
        for (int sample = 0; sample < 3; ++sample) EXPECT_EQ(sample_and_verify(s, kBytes, ""), "") << multi;
    }
}

// A batch that did not run after the reset must fail, although the warm-up
// and the previous sample moved correct bytes of an earlier pattern: the
// destinations are poisoned once per session, not before every sample.
TEST_F(CpuSessionTest, EarlierSamplesBytesDoNotVerify) {
    const std::vector<std::pair<std::string, ParamSet>> sessions = {
        {"cpu-read", {}}, {"cpu-write", {{"stores", "plain"}}}, {"cpu-write", {{"stores", "nt"}}}, {"memcpy", {}},
        {"cpu-copy", {{"stores", "plain"}}}, {"cpu-copy", {{"stores", "nt"}}}, {"cpu-triad", {{"stores", "plain"}}},
        {"cpu-triad", {{"stores", "nt"}}}};
    for (const auto& [method, params] : sessions) {
        auto s = prepare(method, params);
        const std::string v = s->variants().back();
        const std::size_t bytes = method == "cpu-triad" ? (kBytes - 13) / 8 * 8 : kBytes - 13;
        s->warmup(bytes, v);
        for (int sample = 0; sample < 3; ++sample) ASSERT_EQ(sample_and_verify(*s, bytes, v), "") << method;
        s->reset(bytes, v);
        EXPECT_NE(s->verify(bytes, v), "") << method << ": no timed batch since the reset";
    }
}

TEST(CpuPattern, EachSeedDiffersInEveryWordAndSumsAsTheReadKernel) {
    std::vector<std::uint64_t> words(1001);
    auto* a = reinterpret_cast<std::byte*>(words.data());
    const std::size_t bytes = words.size() * 8 - 3;
    const std::uint64_t sum = fill_pattern(a, bytes, 7);
    EXPECT_EQ(sum, reference_sum(a, bytes));
    EXPECT_EQ(first_mismatch(a, bytes, 7), bytes);
    EXPECT_EQ(first_mismatch(a, bytes, 8), 0u);
    for (std::size_t i = 0; i + 1 < bytes / 8; ++i) {
        EXPECT_NE(pattern_word(pattern_mask(7), i), pattern_word(pattern_mask(8), i));
        EXPECT_NE(pattern_word(pattern_mask(7), i), pattern_word(pattern_mask(7), i + 1));
    }
    for (std::size_t prefix : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{9}, bytes - 8})
        EXPECT_EQ(first_mismatch(a, prefix, 7), prefix) << "a prefix of the pattern is the pattern of the prefix";
    a[bytes - 1] ^= std::byte{1};  // the tail is checked too
    EXPECT_EQ(first_mismatch(a, bytes, 7), bytes - 1);
    a[8 * 500 + 5] ^= std::byte{4};
    EXPECT_EQ(first_mismatch(a, bytes, 7), 8u * 500 + 5);
    poison(a, bytes, 7);
    for (std::size_t b = 0; b < bytes; ++b) ASSERT_EQ(a[b], ~pattern_byte(pattern_mask(7), b)) << "every byte differs";
    EXPECT_EQ(first_mismatch(a, bytes, 7), 0u);
}

TEST(CpuPattern, LargeBuffersAreFilledAndCheckedInParallelAlike) {
    const std::size_t bytes = (std::size_t{16} << 20) + 5;
    std::vector<std::uint64_t> words(bytes / 8 + 1);
    auto* a = reinterpret_cast<std::byte*>(words.data());
    const std::uint64_t sum = fill_pattern(a, bytes, 3);
    EXPECT_EQ(sum, reference_sum(a, bytes));
    a[bytes / 3] ^= std::byte{0x10};
    a[bytes / 2] ^= std::byte{0x10};
    EXPECT_EQ(first_mismatch(a, bytes, 3), bytes / 3);
}

// A team that already exists (a session's bound workers) fills and checks the
// same bytes as short-lived threads: each of its chunks runs once, on the
// team's own thread, and the chunks cover the buffer with no gap or overlap.
TEST(CpuPattern, ATeamFillsAndChecksWhatShortLivedThreadsDo) {
    const std::size_t bytes = (std::size_t{8} << 20) + 13;
    std::vector<std::uint64_t> mine(bytes / 8 + 1), theirs(bytes / 8 + 1);
    auto* m = reinterpret_cast<std::byte*>(mine.data());
    auto* t = reinterpret_cast<std::byte*>(theirs.data());
    std::vector<unsigned> calls(3, 0);
    std::vector<std::thread::id> ids(3);
    ChunkTeam team{3, [&](const std::function<void(unsigned)>& body) {
                       std::vector<std::thread> threads;
                       for (unsigned c = 0; c < 3; ++c)
                           threads.emplace_back([&, c] {
                               ++calls[c];
                               ids[c] = std::this_thread::get_id();
                               body(c);
                           });
                       for (auto& th : threads) th.join();
                   }};
    EXPECT_EQ(chunk_count(true, &team), 3u);
    EXPECT_EQ(chunk_count(false, &team), 1u) << "below the parallel size the calling thread alone";
    const std::uint64_t team_sum = fill_pattern(m, bytes, 5, Stores::Plain, &team);
    EXPECT_EQ(calls, (std::vector<unsigned>{1, 1, 1}));
    EXPECT_NE(ids[0], std::this_thread::get_id());
    EXPECT_EQ(team_sum, fill_pattern(t, bytes, 5));
    EXPECT_EQ(std::memcmp(m, t, bytes), 0);
    EXPECT_EQ(reference_sum(m, bytes, &team), team_sum);
    EXPECT_EQ(fill_pattern(m, bytes, 6, Stores::NonTemporal, &team), fill_pattern(t, bytes, 6, Stores::NonTemporal));
    EXPECT_EQ(first_mismatch(m, bytes, 6, &team), bytes);
    m[bytes - 3] ^= std::byte{1};  // in the last chunk only
    m[bytes / 2] ^= std::byte{1};  // in the middle chunk
    EXPECT_EQ(first_mismatch(m, bytes, 6, &team), bytes / 2);
    poison(m, bytes, 6, &team);
    EXPECT_EQ(first_mismatch(m, bytes, 6, &team), 0u);
    for (std::size_t b = 0; b < bytes; b += 4099) ASSERT_EQ(m[b], ~pattern_byte(pattern_mask(6), b));
    std::vector<int> covered(1000, 0);
    for_each_chunk(covered.size(), true, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) ++covered[i];
    }, &team);
    EXPECT_EQ(std::count(covered.begin(), covered.end(), 1), 1000);
}

// first_failing: the smallest failing index whichever chunk finds it, n when
// none fails, alike on one thread, short-lived threads and a team.
TEST(CpuPattern, FirstFailingIsTheSmallestFailingIndexOfAnyChunk) {
    const ChunkTeam team{3, [](const std::function<void(unsigned)>& body) {
                             std::vector<std::thread> threads;
                             for (unsigned c = 0; c < 3; ++c) threads.emplace_back([&body, c] { body(c); });
                             for (auto& th : threads) th.join();
                         }};
    const std::size_t n = 1000;
    for (bool parallel : {false, true})
        for (const ChunkTeam* t : {static_cast<const ChunkTeam*>(nullptr), &team}) {
            EXPECT_EQ(first_failing(n, parallel, [](std::size_t) { return false; }, t), n);
            EXPECT_EQ(first_failing(0, parallel, [](std::size_t) { return true; }, t), 0u);
            const std::set<std::size_t> failing{999, 700, 701, 400};  // none in the first chunk
            EXPECT_EQ(first_failing(n, parallel, [&](std::size_t i) { return failing.count(i) > 0; }, t), 400u);
            EXPECT_EQ(first_failing(n, parallel, [](std::size_t i) { return i >= 5; }, t), 5u);
        }
}

// The streaming fill writes the same bytes as the plain one and returns the
// same sum, which pattern_sum computes without reading the buffer back.
TEST(CpuPattern, StreamingFillMatchesThePlainFillAndTheClosedFormSum) {
    const std::size_t bytes = (std::size_t{8} << 20) + 13;  // parallel chunks, a trailing partial word
    std::vector<std::uint64_t> plain(bytes / 8 + 1), streamed(bytes / 8 + 1);
    auto* p = reinterpret_cast<std::byte*>(plain.data());
    auto* s = reinterpret_cast<std::byte*>(streamed.data());
    const std::uint64_t plain_sum = fill_pattern(p, bytes, 11);
    const std::uint64_t streamed_sum = fill_pattern(s, bytes, 11, Stores::NonTemporal);
    EXPECT_EQ(streamed_sum, plain_sum);
    EXPECT_EQ(streamed_sum, reference_sum(s, bytes));
    EXPECT_EQ(first_mismatch(s, bytes, 11), bytes);
    EXPECT_EQ(std::memcmp(p, s, bytes), 0);
    // Ranges that start and end anywhere, masks with high bits set (seeds 1..).
    for (std::uint64_t seed : {1ull, 2ull, 0xFFFFFFFFull, 0x8000000000000001ull})
        for (auto [begin, end] : {std::pair<std::uint64_t, std::uint64_t>{0, 1}, {3, 1000}, {1000, 1000}, {777, 70001},
                                  {(1ull << 40) - 5, (1ull << 40) + 1000}}) {
            std::uint64_t loop = 0;
            for (std::uint64_t i = begin; i < end; ++i) loop += pattern_word(pattern_mask(seed), i);
            EXPECT_EQ(pattern_sum(seed, begin, end), loop) << "seed " << seed << " [" << begin << ", " << end << ")";
        }
}

// On this machine (2 cores): 2 workers land on 2 distinct cores, each on the PU its slot names.
TEST(BoundParallel, TwoWorkersRunOnTwoDistinctCores) {
    const HwlocTopology topo;
    const auto slots = core_slots_of_numa(topo, topo.numa_os_indexes().front(), false);
    if (slots.size() < 2) GTEST_SKIP() << "needs 2 cores on one NUMA node";
    const std::span<const CoreSlot> two(slots.data(), 2);
    std::vector<int> inside(2, -1);
    const BoundRun run = run_bound_parallel(topo, two, 3, [&](unsigned rank, unsigned) { inside[rank] = current_pu(topo); });
    EXPECT_EQ(run.unbound_workers, 0u) << run.note;
    EXPECT_NE(two[0].core, two[1].core);
    for (unsigned r = 0; r < 2; ++r) {
        EXPECT_EQ(inside[r], two[r].pu) << "worker " << r << " in the timed loop";
        EXPECT_EQ(run.ran_on_pus[r], two[r].pu) << "worker " << r << " after the batch";
    }
}
