// Variants (CPU worker counts) chosen once per record at probe sizes, then
// one variant per size (run/variant_choice.hpp), alone and through the engine.
#include <gtest/gtest.h>

#include <map>
#include <memory>

#include "fake_method.hpp"
#include "run/engine.hpp"
#include "run/variant_choice.hpp"

using namespace hwcomm;

namespace {

constexpr std::uint64_t KiB = 1024, MiB = 1024 * KiB;

// Variant "1" wins below 64 KiB (no fork), "4" wins above: a worker sweep's shape.
class ProbedSession : public TransferSession {
public:
    explicit ProbedSession(std::map<std::pair<std::uint64_t, std::string>, int>& count) : count_(count) {}
    std::vector<std::string> variants() const override { return {"1", "2", "4"}; }
    std::vector<std::size_t> variant_probe_sizes() const override { return {4 * KiB, 8 * MiB, 1ull << 40}; }
    void warmup(std::size_t, const std::string&) override {}
    Sample measure(std::size_t bytes, const std::string& variant) override {
        ++count_[{bytes, variant}];
        const double workers = std::stod(variant);
        const double rate = bytes < 64 * KiB ? 1e9 / workers : 1e9 * workers;
        return Sample{.seconds = static_cast<double>(bytes) / rate, .repetitions = 1, .bytes_per_rep = static_cast<double>(bytes)};
    }
    std::string verify(std::size_t, const std::string&) override { return {}; }
    std::size_t max_bytes() const override { return 16 * MiB; }

private:
    std::map<std::pair<std::uint64_t, std::string>, int>& count_;
};

class ProbedMethod : public test::FakeMethod {
public:
    explicit ProbedMethod(std::map<std::pair<std::uint64_t, std::string>, int>& count) : FakeMethod("probed"), count_(count) {}
    std::unique_ptr<TransferSession> prepare(const Graph&, const Vertex&, const Vertex&, const ParamSet&, std::size_t,
                                             const MethodOptions&) const override {
        return std::make_unique<ProbedSession>(count_);
    }

private:
    std::map<std::pair<std::uint64_t, std::string>, int>& count_;
};

}  // namespace

TEST(VariantChoice, ProbeSizesSnapToTheLadderBelowTheSessionsLargest) {
    const std::vector<std::uint64_t> ladder{1 * KiB, 4 * KiB, 16 * KiB, 1 * MiB, 4 * MiB, 16 * MiB, 64 * MiB};
    EXPECT_EQ(snap_probe_sizes({3 * KiB, 6 * MiB, 1ull << 40}, ladder, 16 * MiB),
              (std::vector<std::uint64_t>{4 * KiB, 4 * MiB, 16 * MiB}));
    EXPECT_EQ(snap_probe_sizes({5 * KiB, 4 * KiB}, ladder, 64 * MiB), (std::vector<std::uint64_t>{4 * KiB}));
    EXPECT_TRUE(snap_probe_sizes({4 * KiB}, ladder, 512).empty());
}

TEST(VariantChoice, EachSizeTakesTheWinnerOfTheNearestProbe) {
    const std::vector<std::uint64_t> ladder{4 * KiB, 64 * KiB, 1 * MiB, 16 * MiB};
    int calls = 0;
    const auto choice = VariantChoice::probe({"1", "8"}, {4 * KiB, 16 * MiB}, ladder, 16 * MiB,
                                             [&](std::uint64_t bytes, const std::string& v) -> std::optional<VariantProbe> {
                                                 ++calls;
                                                 const bool small = bytes < 64 * KiB;
                                                 return VariantProbe{.gbps = (v == "1") == small ? 10.0 : 5.0};
                                             });
    ASSERT_TRUE(choice);
    EXPECT_EQ(calls, 4);  // 2 variants x 2 probes
    EXPECT_EQ(choice->for_size(1), std::vector<std::string>{"1"});
    EXPECT_EQ(choice->for_size(64 * KiB), std::vector<std::string>{"1"});  // 4 octaves from 4 KiB, 8 from 16 MiB
    EXPECT_EQ(choice->for_size(1 * MiB), std::vector<std::string>{"8"});
    EXPECT_EQ(choice->for_size(1ull << 30), std::vector<std::string>{"8"});
    const auto j = choice->to_json();
    EXPECT_EQ(j.at("probes").size(), 4u);
    EXPECT_EQ(j.at("winners").size(), 2u);
}

TEST(VariantChoice, AProbeWhoseVariantsAllFailKeepsEveryVariantAndAnInterruptStops) {
    const std::vector<std::uint64_t> ladder{4 * KiB, 16 * MiB};
    const auto failing = VariantChoice::probe({"1", "2"}, {16 * MiB}, ladder, 16 * MiB,
                                              [](std::uint64_t, const std::string&) -> std::optional<VariantProbe> {
                                                  return VariantProbe{.error = "verification failed"};
                                              });
    ASSERT_TRUE(failing);
    EXPECT_EQ(failing->for_size(16 * MiB), (std::vector<std::string>{"1", "2"}));
    const auto cut = VariantChoice::probe({"1", "2"}, {16 * MiB}, ladder, 16 * MiB,
                                          [](std::uint64_t, const std::string&) -> std::optional<VariantProbe> { return std::nullopt; });
    EXPECT_FALSE(cut);
    // One variant: nothing to choose, nothing measured.
    const auto one = VariantChoice::probe({"4"}, {16 * MiB}, ladder, 16 * MiB,
                                          [](std::uint64_t, const std::string&) -> std::optional<VariantProbe> {
                                              ADD_FAILURE() << "measured";
                                              return std::nullopt;
                                          });
    ASSERT_TRUE(one);
    EXPECT_FALSE(one->probed());
}

TEST(VariantChoice, TheEngineMeasuresOneVariantPerSizeAfterTheProbes) {
    std::map<std::pair<std::uint64_t, std::string>, int> count;
    ProbedMethod m(count);
    const Graph g = test::three_nodes();
    PlannedRecord p{&m, g.find("numa0"), g.find("numa0"), {}, "probed|numa0|numa0|"};
    RunOptions o;
    o.sizes = {1 * KiB, 4 * KiB, 16 * KiB, 256 * KiB, 1 * MiB, 8 * MiB, 16 * MiB};
    o.stopping.min_samples = 3;
    o.stopping.max_samples = 3;
    const Record r = *measure_record(g, p, o);
    ASSERT_EQ(r.points.size(), o.sizes.size());
    for (const Point& pt : r.points) {
        EXPECT_TRUE(pt.variants.empty()) << pt.bytes;  // no list of others: one variant measured
        EXPECT_EQ(pt.best_variant, pt.bytes < 64 * KiB ? "1" : "4") << pt.bytes;
    }
    const auto& winners = r.context.at("variant_choice").at("winners");
    ASSERT_EQ(winners.size(), 3u);  // 4 KiB, 8 MiB and the session's 16 MiB
    EXPECT_EQ(winners[0].at("variant"), "1");
    EXPECT_EQ(winners[2].at("variant"), "4");
    // A size that is no probe was measured with its chosen variant only.
    const auto measured = [&](std::uint64_t bytes, const char* v) { return count[std::make_pair(bytes, std::string(v))]; };
    EXPECT_EQ(measured(256 * KiB, "1"), 0);
    EXPECT_EQ(measured(256 * KiB, "2"), 0);
    EXPECT_GT(measured(256 * KiB, "4"), 0);
    EXPECT_GT(measured(8 * MiB, "2"), 0);  // a probe size: every variant
    // At 16 MiB "4" went first (fastest at 8 MiB) and "1" and "2", slower at 8
    // MiB than "4" is at 16 MiB, could not overtake: not probed.
    EXPECT_EQ(measured(16 * MiB, "1"), 0);
    EXPECT_EQ(measured(16 * MiB, "2"), 0);
    const auto& skipped = r.context.at("variant_choice").at("skipped");
    ASSERT_EQ(skipped.size(), 2u);
    EXPECT_EQ(skipped[0].at("bytes"), 16 * MiB);
}

TEST(VariantChoice, OnlyAVariantThatCannotOvertakeIsLeftOutAtALargerProbe) {
    const std::vector<std::uint64_t> ladder{4 * KiB, 64 * MiB, 256 * MiB, 1024 * MiB};
    // Per variant and probe size: median GB/s and the CI's relative half-width.
    struct Planted {
        double gbps, ci;
    };
    std::map<std::pair<std::uint64_t, std::string>, Planted> planted{
        // At 4 KiB the samples last microseconds: the team's start shows, nothing is ruled out after it.
        {{4 * KiB, "1"}, {1.0, 0.01}}, {{4 * KiB, "4"}, {0.5, 0.01}}, {{4 * KiB, "16"}, {0.2, 0.01}},
        {{64 * MiB, "1"}, {10.0, 0.01}}, {{64 * MiB, "4"}, {38.0, 0.05}}, {{64 * MiB, "16"}, {100.0, 0.01}},
        // "4" at 64 MiB reaches 38 * 1.05 = 39.9 > 40 * 0.98 = 39.2: within the CIs, probed
        // (fewer workers than "16": it would need a median above 40, and 39.9 could be close enough);
        // "1" at 64 MiB (10) is below both: skipped here and at 1 GiB.
        {{256 * MiB, "4"}, {36.0, 0.01}}, {{256 * MiB, "16"}, {39.5, 0.02}},
        {{1024 * MiB, "4"}, {35.0, 0.01}}, {{1024 * MiB, "16"}, {34.0, 0.01}},
    };
    std::vector<std::pair<std::uint64_t, std::string>> order;
    const auto choice = VariantChoice::probe(
        {"1", "4", "16"}, {4 * KiB, 64 * MiB, 256 * MiB, 1024 * MiB}, ladder, 1024 * MiB,
        [&](std::uint64_t bytes, const std::string& v) -> std::optional<VariantProbe> {
            order.emplace_back(bytes, v);
            const auto it = planted.find({bytes, v});
            if (it == planted.end()) {
                ADD_FAILURE() << v << " probed at " << bytes;
                return VariantProbe{.error = "not planted"};
            }
            return VariantProbe{.gbps = it->second.gbps, .ci_half_width = it->second.ci, .samples = 5};
        });
    ASSERT_TRUE(choice);
    // Every variant at the first two probes; at 256 MiB the fastest at 64 MiB first.
    ASSERT_EQ(order.size(), 10u);
    EXPECT_EQ(order[6], std::make_pair(256 * MiB, std::string("16")));
    EXPECT_EQ(order[7], std::make_pair(256 * MiB, std::string("4")));
    // At 1 GiB "4" (36 at 256 MiB) may overtake "16" (39.5 there, 34 here) and does.
    EXPECT_EQ(order[8], std::make_pair(1024 * MiB, std::string("16")));
    EXPECT_EQ(choice->for_size(1024 * MiB), std::vector<std::string>{"4"});
    EXPECT_EQ(choice->for_size(256 * MiB), std::vector<std::string>{"16"});
    const auto j = choice->to_json();
    ASSERT_EQ(j.at("skipped").size(), 2u);
    EXPECT_EQ(j.at("skipped")[0].at("variant"), "1");
    EXPECT_EQ(j.at("skipped")[1].at("bytes"), 1024 * MiB);
}

TEST(VariantChoice, AtTheLargestProbeTheMostWorkersWinAmongCountsTheProbeCannotTellApart) {
    const std::vector<std::uint64_t> ladder{8 * MiB, 1024 * MiB};
    // The numbers of a noisy 16-core H100 host's cpu-read and cpu-write probes (6ece7ff, 8f5c5c3).
    const auto probe_with = [&](std::map<std::pair<std::uint64_t, std::string>, std::pair<double, double>> planted) {
        return VariantChoice::probe({"4", "8", "16"}, {8 * MiB, 1024 * MiB}, ladder, 1024 * MiB,
                                    [planted](std::uint64_t bytes, const std::string& v) -> std::optional<VariantProbe> {
                                        const auto it = planted.find({bytes, v});
                                        if (it == planted.end()) return VariantProbe{.error = "not planted"};
                                        return VariantProbe{.gbps = it->second.first,
                                                            .ci_half_width = it->second.second, .samples = 3};
                                    });
    };
    // Overlapping CIs at both probes: 8 MiB keeps the highest median, 1 GiB takes 16 workers.
    const auto overlapping = probe_with({{{8 * MiB, "4"}, {40.0, 0.01}},
                                         {{8 * MiB, "8"}, {58.7, 0.022}},
                                         {{8 * MiB, "16"}, {56.3, 0.25}},
                                         {{1024 * MiB, "4"}, {40.0, 0.01}},
                                         {{1024 * MiB, "8"}, {58.7, 0.022}},
                                         {{1024 * MiB, "16"}, {56.3, 0.25}}});
    ASSERT_TRUE(overlapping);
    EXPECT_EQ(overlapping->for_size(8 * MiB), std::vector<std::string>{"8"});
    EXPECT_EQ(overlapping->for_size(1024 * MiB), std::vector<std::string>{"16"});
    // CIs apart at 1 GiB: the faster count wins, however few its workers.
    const auto apart = probe_with({{{8 * MiB, "4"}, {40.0, 0.01}},
                                   {{8 * MiB, "8"}, {100.0, 0.01}},
                                   {{8 * MiB, "16"}, {100.0, 0.01}},
                                   {{1024 * MiB, "4"}, {40.0, 0.01}},
                                   {{1024 * MiB, "8"}, {145.3, 0.02}},
                                   {{1024 * MiB, "16"}, {119.7, 0.011}}});
    ASSERT_TRUE(apart);
    EXPECT_EQ(apart->for_size(1024 * MiB), std::vector<std::string>{"8"});
}

// A variant of fewer workers than the best so far wins only with a higher
// median: it is left out where the top of its last CI lies below the best's
// median, though that top reaches into the best's CI; one of more workers
// (the largest probe prefers the most workers within the best's CI) is
// measured while its last CI top reaches the bottom of the best's CI.
TEST(VariantChoice, FewerWorkersMustReachTheBestsMedianMoreWorkersOnlyItsCi) {
    const std::vector<std::uint64_t> ladder{64 * MiB, 1024 * MiB};
    std::map<std::pair<std::uint64_t, std::string>, std::pair<double, double>> planted{
        {{64 * MiB, "4"}, {14.0, 0.05}},  {{64 * MiB, "8"}, {44.0, 0.02}}, {{64 * MiB, "16"}, {30.0, 0.05}},
        {{1024 * MiB, "8"}, {38.0, 0.40}}, {{1024 * MiB, "16"}, {29.0, 0.05}},
    };
    std::vector<std::pair<std::uint64_t, std::string>> order;
    const auto probe = [&] {
        order.clear();
        return VariantChoice::probe(
            {"4", "8", "16"}, {64 * MiB, 1024 * MiB}, ladder, 1024 * MiB,
            [&](std::uint64_t bytes, const std::string& v) -> std::optional<VariantProbe> {
                order.emplace_back(bytes, v);
                const auto it = planted.find({bytes, v});
                if (it == planted.end()) return VariantProbe{.error = "not planted"};
                return VariantProbe{.gbps = it->second.first, .ci_half_width = it->second.second, .samples = 3};
            });
    };
    const auto choice = probe();
    ASSERT_TRUE(choice);
    // At 1 GiB: "8" first (fastest at 64 MiB), 38 +-40%. "16" (30 * 1.05 = 31.5 at 64 MiB) reaches 38 * 0.6
    // = 22.8: measured. "4" (14 * 1.05 = 14.7) is below that bottom too, and below the median 38: left out.
    ASSERT_EQ(order.size(), 5u);
    EXPECT_EQ(order[3], std::make_pair(1024 * MiB, std::string("8")));
    EXPECT_EQ(order[4], std::make_pair(1024 * MiB, std::string("16")));
    EXPECT_EQ(choice->for_size(1024 * MiB), std::vector<std::string>{"16"});  // 29 +-5% reaches 38 +-40%
    // The same with "4" at 25 at 64 MiB: its top (26.25) reaches the best's CI bottom (22.8) but not the
    // best's median: with fewer workers it cannot win at 1 GiB, and is left out all the same.
    planted[{64 * MiB, "4"}] = {25.0, 0.05};
    const auto again = probe();
    ASSERT_TRUE(again);
    EXPECT_EQ(order.size(), 5u);
    EXPECT_EQ(again->to_json().at("skipped").size(), 1u);
}
