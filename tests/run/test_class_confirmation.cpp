// Representatives, confirmations and promotion (issue 21, item 4) on the 8-
// and 16-GPU fixtures with a scripted method: one planted slow pair is
// promoted and flagged, nothing else; representatives come first, so a run
// cut short covers every class and a resume completes the rest.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "class_fixture.hpp"
#include "planted_method.hpp"
#include "timed_point.hpp"
#include "run/class_plan.hpp"
#include "run/confirmation.hpp"
#include "run/engine.hpp"

using namespace hwcomm;

namespace {

using Fixture = test::PlannedFixture;

RunOptions options() { return test::ladder_options(); }

Fixture planned(const std::string& xml, const test::PlantedMethod& method) { return test::plan_on_fixture(xml, method); }

// The confirmed pairs of the plan, a round's lanes each, in plan order.
std::vector<std::pair<std::string, std::string>> confirmed_pairs(const std::vector<PlannedRecord>& plan) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const PlannedRecord& p : plan) {
        if (p.measured_as != "confirmed") continue;
        if (p.round.empty()) out.emplace_back(p.src_id, p.dst_id);
        for (const PlannedRecord& lane : p.round) out.emplace_back(lane.src_id, lane.dst_id);
    }
    return out;
}

// The planned record (a round's lane included) that writes `key`.
const PlannedRecord* planned_of(const std::vector<PlannedRecord>& plan, const std::string& key) {
    for (const PlannedRecord& p : plan) {
        if (p.key == key) return &p;
        for (const PlannedRecord& lane : p.round)
            if (lane.key == key) return &lane;
    }
    return nullptr;
}

// A pair that is neither its class's representative nor its reverse.
std::pair<std::string, std::string> ordinary_member(const Fixture& f) {
    const auto pairs = confirmed_pairs(f.plan);
    return pairs.empty() ? std::pair<std::string, std::string>{} : pairs.front();
}

// `scattered`: every pair's latency planted between 0.75x and 1.25x of 10 us
// (systematic, as on nvidia-h200-x4 where staged peer copies took 13-19 us at
// 1 B on any pair, a different pair slowest in each run).
void expect_one_promotion(const std::string& xml, std::size_t gpus, bool scattered = false) {
    // Plan once to find a confirmed pair, then plant it slow (300 instead of 400 GB/s).
    const test::PlantedMethod probe({});
    const Fixture first = planned(xml, probe);
    ASSERT_EQ(written_record_count(first.plan), gpus * (gpus - 1));
    const auto slow = ordinary_member(first);
    ASSERT_FALSE(slow.first.empty());
    test::PlantedLinks links;
    links.gbps_of[slow] = 300;
    if (scattered) {
        std::size_t k = 0;
        for (const PlannedRecord& p : first.plan) {
            std::vector<const PlannedRecord*> pairs{&p};
            if (!p.round.empty()) pairs.clear();
            for (const PlannedRecord& lane : p.round) pairs.push_back(&lane);
            for (const PlannedRecord* q : pairs) {
                const double golden = std::fmod(0.618034 * static_cast<double>(++k), 1.0);
                links.latency_of[{q->src_id, q->dst_id}] = 10e-6 * (0.75 + 0.5 * golden);
            }
        }
    }
    const test::PlantedMethod method(links);
    const Fixture f = planned(xml, method);

    ResultsFile results;
    EngineHooks hooks;
    ASSERT_EQ(run_plan(f.graph, f.plan, options(), results, hooks), written_record_count(f.plan));
    std::size_t full = 0, confirmed = 0, planned_full = 0;
    for (const PlannedRecord& p : f.plan) planned_full += p.measured_as == "full";
    bool confirmations_begun = false;
    for (const Record& r : results.records) {
        if (r.measured_as == "full") {
            EXPECT_FALSE(confirmations_begun) << r.key << ": a full record after a confirmation";
            ++full;
            continue;
        }
        confirmations_begun = true;
        if (r.src == slow.first && r.dst == slow.second) {
            EXPECT_EQ(r.measured_as, "promoted") << r.key;
            const std::string reason = r.context.at("promotion").at("reason");
            EXPECT_NE(reason.find("from "), std::string::npos) << reason;  // names the representative
            EXPECT_GT(r.points.size(), 10u);  // the full ladder
            continue;
        }
        EXPECT_EQ(r.measured_as, "confirmed") << r.key << " " << r.context.dump();
        EXPECT_LE(r.points.size(), 3u) << r.key;
        ++confirmed;
    }
    EXPECT_EQ(full, planned_full);
    EXPECT_EQ(confirmed + 1, written_record_count(f.plan) - planned_full);
}

}  // namespace

TEST(ClassConfirmation, OnePlantedSlowPairOfTheDgxH100IsPromotedAndNothingElse) {
    expect_one_promotion("dgxh100-nvswitch.xml", 8);
}

TEST(ClassConfirmation, OnePlantedSlowPairOfTheDgx1IsPromotedAndNothingElse) {
    expect_one_promotion("dgx1.xml", 8);
}

TEST(ClassConfirmation, OnePlantedSlowPairOfTheSixteenGpuDgx2IsPromotedAndNothingElse) {
    expect_one_promotion("dgx2-nvswitch.xml", 16);
}

// The representative-only rule would promote most of these pairs at 1 KiB
// (up to 25% off it, 2.5 us where the clock resolves 0.5 us); against the
// class's own scatter only the slow pair is unlike its siblings.
TEST(ClassConfirmation, LatencyScatteredOverTheClassPromotesOnlyThePlantedSlowPair) {
    expect_one_promotion("dgxh100-nvswitch.xml", 8, true);
    expect_one_promotion("dgx1.xml", 8, true);
}

// A confirmation outside its class is measured again before it is promoted:
// a first session 40% slower at small sizes (noise that does not repeat) is
// kept as confirmed with its first measurement beside it, and so is one
// slower the first time and faster the second (outside twice, on opposite
// sides: the path's noise); the slow pair, outside both times on the same
// side, is promoted.
TEST(ClassConfirmation, AnOutlierThatDoesNotRepeatIsKeptAndOneThatDoesIsPromoted) {
    const test::PlantedMethod probe({});
    const Fixture first = planned("dgxh100-nvswitch.xml", probe);
    const std::vector<std::pair<std::string, std::string>> confirmed = confirmed_pairs(first.plan);
    ASSERT_GE(confirmed.size(), 10u);
    test::PlantedLinks links;
    links.latency_s = 10e-6;
    links.gbps_of[confirmed[0]] = 300;
    const std::set<std::pair<std::string, std::string>> transient{confirmed[3], confirmed[5], confirmed[9]};
    for (const auto& pair : transient) links.first_latency_of[pair] = 14e-6;
    links.second_latency_of[confirmed[9]] = 6e-6;  // slower, then faster
    const test::PlantedMethod method(links);
    const Fixture f = planned("dgxh100-nvswitch.xml", method);
    ResultsFile results;
    EngineHooks hooks;
    ASSERT_EQ(run_plan(f.graph, f.plan, options(), results, hooks), written_record_count(f.plan));
    std::size_t promoted = 0, measured_twice = 0;
    for (const Record& r : results.records) {
        const std::pair<std::string, std::string> pair{r.src, r.dst};
        if (r.measured_as == "promoted") {
            ++promoted;
            EXPECT_EQ(pair, confirmed[0]);
            EXPECT_NE(r.context.at("promotion").at("reason").get<std::string>().find("measured twice"), std::string::npos);
            EXPECT_TRUE(r.context.at("promotion").at("measured_twice").get<bool>());
            EXPECT_TRUE(r.context.at("promotion").at("first_measurement").contains("compared"));
        }
        if (r.measured_as == "confirmed" && r.context.at("confirmation").contains("first_measurement")) {
            ++measured_twice;
            EXPECT_TRUE(transient.count(pair)) << r.key;
            EXPECT_LE(r.points.size(), 3u);
            EXPECT_EQ(r.context.at("confirmation").contains("outside_again_elsewhere"), pair == confirmed[9]) << r.key;
        }
    }
    EXPECT_EQ(promoted, 1u);
    EXPECT_EQ(measured_twice, transient.size());
    EXPECT_EQ(method.prepares_of.at(confirmed[3]), 2);  // the confirmation and its second measurement
}

TEST(ClassConfirmation, ARunCutShortHasEveryClassAndAResumeCompletesIt) {
    const test::PlantedMethod method({});
    const Fixture f = planned("dgx1.xml", method);
    std::set<std::string> classes;
    std::size_t full = 0;
    for (const PlannedRecord& p : f.plan) {
        classes.insert(p.class_id);
        full += p.measured_as == "full";
    }
    ASSERT_GT(classes.size(), 1u);  // the hybrid cube mesh has several kinds of GPU pair
    ResultsFile results;
    EngineHooks hooks;
    hooks.stop_after_records = full;  // interrupted after the representatives
    ASSERT_EQ(run_plan(f.graph, f.plan, options(), results, hooks), full);
    std::set<std::string> covered;
    for (const Record& r : results.records)
        if (const PlannedRecord* p = planned_of(f.plan, r.key)) covered.insert(p->class_id);
    EXPECT_EQ(covered, classes);
    // The resume measures only the confirmations, against the stored representatives.
    EngineHooks rest;
    EXPECT_EQ(run_plan(f.graph, f.plan, options(), results, rest), written_record_count(f.plan) - full);
    for (const Record& r : results.records) EXPECT_NE(r.measured_as, "promoted") << r.key;
}

// Confirmations are stored when their class is judged: a run stopped inside a
// class keeps none of its confirmations, and the resume measures them all.
TEST(ClassConfirmation, ARunStoppedInsideAClassKeepsNoneOfItsConfirmationsAndTheResumeJudgesThemTogether) {
    const test::PlantedMethod method({});
    const Fixture f = planned("dgxh100-nvswitch.xml", method);
    std::size_t full = 0;
    for (const PlannedRecord& p : f.plan) full += p.measured_as == "full";
    ResultsFile results;
    EngineHooks hooks;
    std::size_t stored = 0, asked = 0;
    hooks.on_record = [&](const Record&) { ++stored; };
    // After the representatives, well inside the class's confirmations.
    hooks.should_stop = [&] { return stored >= full && ++asked > 40; };
    run_plan(f.graph, f.plan, options(), results, hooks);
    ASSERT_GE(results.records.size(), 1u);
    for (const Record& r : results.records) EXPECT_EQ(r.measured_as, "full") << r.key;
    EngineHooks rest;
    const std::size_t left = written_record_count(f.plan) - results.records.size();  // before: argument order is unspecified
    EXPECT_EQ(run_plan(f.graph, f.plan, options(), results, rest), left);
    EXPECT_EQ(results.records.size(), written_record_count(f.plan));
    std::size_t confirmed = 0;
    for (const Record& r : results.records) {
        if (r.measured_as != "confirmed") continue;
        ++confirmed;
        EXPECT_EQ(r.context.at("confirmation").at("compared").at(0).at("class").at("links"),
                  written_record_count(f.plan) - full + 1)
            << r.key;
    }
    EXPECT_EQ(confirmed, written_record_count(f.plan) - full);
}

TEST(ClassConfirmation, ExhaustiveMeasuresEveryPairInFullOnTheFixedSizes) {
    const test::PlantedMethod method({});
    Fixture f = planned("dgxh100-nvswitch.xml", method);
    RunOptions o = options();
    o.plan.exhaustive = true;
    f.plan = apply_classes(f.plan, f.classes, f.graph, true);
    ResultsFile results;
    EngineHooks hooks;
    run_plan(f.graph, f.plan, o, results, hooks);
    for (const Record& r : results.records) {
        EXPECT_EQ(r.measured_as, "full");
        EXPECT_EQ(r.points.size(), o.sizes.size()) << r.key;
        EXPECT_FALSE(r.context.contains("ladder"));
    }
}

namespace {

Record timed_record(std::vector<std::pair<std::uint64_t, double>> times) {
    Record r;
    r.src = "gpu0";
    r.dst = "gpu1";
    for (const auto& [bytes, seconds] : times) r.points.push_back(test::timed_point(bytes, seconds));
    return r;
}

}  // namespace

TEST(ClassConfirmation, ALatencyBoundDifferenceBelowTheTimersResolutionDoesNotPromote) {
    const std::uint64_t plateau = std::uint64_t{64} << 20;
    const Record rep = timed_record({{1, 2.0e-6}, {plateau, plateau / 50e9}});
    // 1 B 0.4 us slower (20%) and 0.4 us faster: within the 0.5 us the clock resolves; plateau alike.
    EXPECT_FALSE(judge_confirmation(timed_record({{1, 2.4e-6}, {plateau, plateau / 50e9}}), rep).promote);
    EXPECT_FALSE(judge_confirmation(timed_record({{1, 1.6e-6}, {plateau, plateau / 50e9}}), rep).promote);
    // 1 us slower at 1 B is beyond it, and so is a plateau 20% slower.
    const ConfirmationVerdict slow_latency = judge_confirmation(timed_record({{1, 3.0e-6}, {plateau, plateau / 50e9}}), rep);
    EXPECT_TRUE(slow_latency.promote);
    EXPECT_NE(slow_latency.reason.find("at 1 B"), std::string::npos) << slow_latency.reason;
    EXPECT_TRUE(judge_confirmation(timed_record({{1, 2.0e-6}, {plateau, plateau / 40e9}}), rep).promote);
}
