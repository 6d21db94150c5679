// GPU tests (label "gpu") of confirmation rounds (run/confirmation_rounds.hpp):
// every round-capable copy runs its lanes together, checks each lane's data,
// and a lane moves what the same copy moves alone (both directions of a
// full-duplex link at once); the engine splits a measured round into one
// confirmed record per lane.
#include <gtest/gtest.h>

#include <algorithm>

#include "gpu_test_support.hpp"
#include "methods/cuda/register.hpp"
#include "run/confirmation_rounds.hpp"
#include "run/engine.hpp"

using namespace hwcomm;
using namespace hwcomm::cuda;

namespace {

constexpr std::size_t kBytes = 64u << 20;

// The fastest of five samples of `session` at kBytes, per lane (one lane: the sample's own time).
std::vector<double> best_seconds(TransferSession& session, std::size_t lanes) {
    session.warmup(kBytes, "");
    std::vector<double> best(lanes, 1e9);
    for (int i = 0; i < 5; ++i) {
        session.reset(kBytes, "");
        const Sample s = session.measure(kBytes, "");
        EXPECT_EQ(session.verify(kBytes, ""), "");
        if (s.lanes.empty()) best[0] = std::min(best[0], s.seconds / static_cast<double>(s.repetitions));
        for (std::size_t k = 0; k < s.lanes.size() && k < lanes; ++k)
            best[k] = std::min(best[k], s.lanes[k].seconds / static_cast<double>(s.repetitions));
    }
    return best;
}

}  // namespace

TEST(RoundsGpu, EveryRoundMethodRunsBothDirectionsAtOnceAndChecksEachLane) {
    REQUIRE_GPUS(2);
    const Graph g = live_graph();
    Registry reg;
    register_cuda_methods(reg);
    const Vertex* a = g.find("gpu0");
    const Vertex* b = g.find("gpu1");
    const ParamSet peer_on{{"peer", "on"}};
    EXPECT_FALSE(reg.find("memcpy-peer")->measures_rounds({{"peer", "off"}}));
    std::size_t tested = 0;
    for (const char* name : {"memcpy-peer", "memcpy-d2d", "sm-copy-d2d", "sm-copy-d2d-push", "tma-copy-d2d"}) {
        const Characterizer* m = reg.find(name);
        ASSERT_NE(m, nullptr) << name;
        const Applicability ok = m->applicable(g, *a, *b);
        if (!ok.ok) {
            EXPECT_EQ(std::string(name), "tma-copy-d2d") << ok.reason;  // before sm_90
            continue;
        }
        ASSERT_TRUE(m->measures_rounds(peer_on)) << name;
        auto round = m->prepare_round(g, {{a, b}, {b, a}}, peer_on, kBytes, MethodOptions{});
        const auto specs = round->lanes();
        ASSERT_EQ(specs.size(), 2u) << name;
        EXPECT_EQ(specs[0].label, "gpu0->gpu1");
        EXPECT_EQ(specs[1].label, "gpu1->gpu0");
        EXPECT_EQ(specs[0].method, name);
        const std::vector<double> lanes = best_seconds(*round, 2);
        auto alone = m->prepare(g, *a, *b, peer_on, kBytes, MethodOptions{});
        const double solo = best_seconds(*alone, 1).at(0);
        // A full-duplex link carries each direction's own bandwidth: the lane
        // is not half the copy alone (expected near 1; 0.5 would be a shared wire).
        EXPECT_GT(solo / lanes[0], 0.6) << name << ": lane " << lanes[0] << " s, alone " << solo << " s";
        EXPECT_GT(solo / lanes[1], 0.6) << name << ": lane " << lanes[1] << " s, alone " << solo << " s";
        std::printf("%s: 64 MiB alone %.1f GB/s, in a round of both directions %.1f and %.1f GB/s\n", name,
                    kBytes / solo / 1e9, kBytes / lanes[0] / 1e9, kBytes / lanes[1] / 1e9);
        ++tested;
    }
    EXPECT_GE(tested, 4u);
}

// The engine: a round of both directions judged against a representative of
// the same copy measured in full: one record per lane, each the round's
// sizes, verified, context.round naming both lanes (or measured again alone
// and promoted when outside its class: then a full ladder).
TEST(RoundsGpu, TheEngineWritesOneCheckedRecordPerLane) {
    REQUIRE_GPUS(2);
    const Graph g = live_graph();
    Registry reg;
    register_cuda_methods(reg);
    const Characterizer* m = reg.find("memcpy-peer");
    const Vertex* a = g.find("gpu0");
    const Vertex* b = g.find("gpu1");
    const ParamSet peer_on{{"peer", "on"}};
    const auto planned = [&](const Vertex* s, const Vertex* d, const std::string& tag) {
        PlannedRecord p{m, s, d, peer_on, record_key("memcpy-peer", s->id, d->id, peer_on) + tag, s->id, d->id,
                        std::nullopt};
        return p;
    };
    std::vector<PlannedRecord> plan{planned(a, b, "")};
    PlannedRecord lane_ab = planned(a, b, "#lane"), lane_ba = planned(b, a, "#lane");
    for (PlannedRecord* p : {&lane_ab, &lane_ba}) {
        p->measured_as = "confirmed";
        p->representative_key = plan.front().key;
    }
    plan.push_back(make_round({lane_ab, lane_ba}, 1));
    RunOptions o;
    SweepOptions sweep;
    sweep.min_bytes = 1024;
    sweep.max_bytes = 256u << 20;
    o.sweep = sweep;
    o.sizes = sweep_sizes(sweep);
    ResultsFile results;
    EngineHooks hooks;
    ASSERT_EQ(run_plan(g, plan, o, results, hooks), 3u);
    for (const PlannedRecord* lane : {&lane_ab, &lane_ba}) {
        const Record* r = results.find(lane->key);
        ASSERT_NE(r, nullptr) << lane->key;
        EXPECT_EQ(r->status, "ok") << r->error;
        for (const Point& p : r->points) EXPECT_TRUE(p.verified) << r->key << " at " << p.bytes;
        if (r->measured_as == "promoted") {
            // Outside its class in the round and again alone: the full ladder, saying why and that it was measured twice.
            const nlohmann::json& why = r->context.at("promotion");
            EXPECT_EQ(why.at("representative"), plan.front().key);
            EXPECT_TRUE(why.value("measured_twice", false)) << why.dump();
            EXPECT_FALSE(why.at("reason").get<std::string>().empty());
            EXPECT_GT(r->points.size(), 3u);
            continue;
        }
        EXPECT_EQ(r->measured_as, "confirmed");
        EXPECT_LE(r->points.size(), 3u);
        EXPECT_EQ(r->context.at("round").at("lanes"), nlohmann::json({"gpu0->gpu1", "gpu1->gpu0"}));
        EXPECT_EQ(r->context.at("round_lanes"), 2);
    }
}
