// Confirmations that grow with the links (issue 21, item 2; run/confirmation_rounds.hpp):
// pairs confirmed in rounds of lanes on the 8- and 16-GPU fixtures, links
// covered by a few pairs for methods that cannot, with a scripted method.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <set>

#include "discover/discover.hpp"
#include "class_fixture.hpp"
#include "planted_method.hpp"
#include "run/budget.hpp"
#include "run/class_plan.hpp"
#include "run/confirmation_rounds.hpp"
#include "run/engine.hpp"
#include "run/plan_estimate.hpp"
#include "core/error.hpp"

using namespace hwcomm;

namespace {

using Pair = std::pair<std::string, std::string>;

RunOptions options() { return test::ladder_options(); }

Graph fixture(const std::string& xml) {
    DiscoverOptions d;
    d.input_xml = std::string(HWCOMM_FIXTURES) + "/hwloc/" + xml;
    return discover_machine(d);
}

// Every applicable pair of each method, classed as a run classes them.
std::vector<PlannedRecord> plan_of(const Graph& graph, const std::vector<const test::PlantedMethod*>& methods) {
    std::vector<PlannedRecord> all;
    for (const test::PlantedMethod* method : methods)
        for (const auto& pair : method_pairs(graph, *method))
            if (pair.applicability.ok)
                all.push_back({method, pair.src, pair.dst, {}, record_key(method->name(), pair.src->id, pair.dst->id, {}),
                               pair.src->id, pair.dst->id, std::nullopt});
    return apply_classes(all, classify(graph, plan_members(all)), graph, false);
}

// A method confirmed in rounds and one confirmed by covers ("planted-solo"),
// both on `graph`, `slow` (when given) at 300 GB/s in both, and their plan.
struct RoundsAndCovers {
    static test::PlantedLinks links(bool rounds, const std::optional<Pair>& slow) {
        test::PlantedLinks l;
        l.rounds = rounds;
        if (slow) l.gbps_of[*slow] = 300;
        return l;
    }
    RoundsAndCovers(const Graph& graph, const std::optional<Pair>& slow)
        : rounds(links(true, slow)), covers(links(false, slow), "planted-solo"), plan(plan_of(graph, {&rounds, &covers})) {}
    RoundsAndCovers(const RoundsAndCovers&) = delete;  // the plan points at this object's methods
    const test::PlantedMethod rounds, covers;
    const std::vector<PlannedRecord> plan;
};

std::vector<Pair> lanes_of(const PlannedRecord& round) {
    std::vector<Pair> out;
    for (const PlannedRecord& lane : round.round) out.emplace_back(lane.src_id, lane.dst_id);
    return out;
}

void expect_rounds_apart(const Graph& graph, const std::vector<PlannedRecord>& plan, std::size_t gpus,
                         std::size_t confirmations) {
    std::set<Pair> seen;
    std::map<std::string, std::size_t> rounds_of_class;
    for (const PlannedRecord& p : plan) {
        if (p.measured_as != "confirmed") continue;
        ASSERT_FALSE(p.round.empty()) << p.key << ": a GPU pair confirmed alone";
        ++rounds_of_class[p.class_id];
        std::set<std::string> sources, destinations;
        std::set<DirectedLink> links;
        for (const PlannedRecord& lane : p.round) {
            EXPECT_TRUE(sources.insert(lane.src_id).second) << p.key << ": " << lane.src_id << " sends twice";
            EXPECT_TRUE(destinations.insert(lane.dst_id).second) << p.key << ": " << lane.dst_id << " receives twice";
            for (const DirectedLink& l : route_links(graph, *lane.src, *lane.dst))
                EXPECT_TRUE(links.insert(l).second) << p.key << ": link " << l.first << " crossed twice one way";
            EXPECT_TRUE(seen.insert({lane.src_id, lane.dst_id}).second) << lane.key << " in two rounds";
            EXPECT_EQ(lane.representative_key, p.representative_key);
            EXPECT_EQ(lane.class_id, p.class_id);
        }
    }
    EXPECT_EQ(seen.size(), confirmations);
    for (const auto& [c, rounds] : rounds_of_class) EXPECT_LE(rounds, gpus - 1) << c;
}

}  // namespace

// 56 ordered pairs of the NVSwitch node in one class: the representative and
// its reverse in full, the 54 others in 7 rounds (i -> i + k), 8 lanes at most.
TEST(ClassRounds, TheDgxH100sPairsAreConfirmedInSevenRoundsThatShareNoLink) {
    const Graph graph = fixture("dgxh100-nvswitch.xml");
    const test::PlantedMethod method({});
    const std::vector<PlannedRecord> plan = plan_of(graph, {&method});
    std::size_t full = 0, rounds = 0;
    for (const PlannedRecord& p : plan) {
        full += p.measured_as == "full";
        rounds += !p.round.empty();
        if (!p.round.empty()) {
            EXPECT_LE(p.round.size(), 8u);
        }
    }
    EXPECT_EQ(full, 2u);
    EXPECT_EQ(rounds, 7u);
    expect_rounds_apart(graph, plan, 8, 54);
}

TEST(ClassRounds, TheSixteenGpuDgx2sRoundsGrowWithTheGpusNotWithThePairs) {
    const Graph graph = fixture("dgx2-nvswitch.xml");
    const test::PlantedMethod method({});
    const std::vector<PlannedRecord> plan = plan_of(graph, {&method});
    std::size_t full = 0, rounds = 0;
    for (const PlannedRecord& p : plan) {
        full += p.measured_as == "full";
        rounds += !p.round.empty();
    }
    EXPECT_EQ(written_record_count(plan), 240u);
    expect_rounds_apart(graph, plan, 16, 240 - full);
    EXPECT_LE(rounds, 2 * 15u);  // each class at most n - 1 rounds
}

// A budget that leaves the confirmations for --resume counts the records it
// leaves: each round's lanes, not one per round.
TEST(ClassRounds, ABudgetCountsTheLanesOfTheRoundsItDefers) {
    const Graph graph = fixture("dgxh100-nvswitch.xml");
    const test::PlantedMethod method({});
    const std::vector<PlannedRecord> plan = plan_of(graph, {&method});
    const CostModel costs = builtin_cost_model();
    const double whole = estimate_plan(plan, options(), costs, std::vector<bool>(plan.size(), false)).total_s;
    std::optional<BudgetFit> fit;
    for (double budget = whole; budget > whole / 1000; budget *= 0.8) {
        try {
            fit = fit_budget(plan, options(), costs, budget);
        } catch (const UsageError&) {
            break;  // below the minimum plan
        }
        if (std::count(fit->deferred.begin(), fit->deferred.end(), true) > 0) break;
    }
    ASSERT_TRUE(fit.has_value());
    std::size_t rounds_deferred = 0;
    for (std::size_t i = 0; i < plan.size(); ++i) rounds_deferred += fit->deferred[i] && !plan[i].round.empty();
    ASSERT_EQ(rounds_deferred, 7u) << "every round of the class left for --resume";
    EXPECT_EQ(fit->deferred_records, 54u);
    EXPECT_EQ(budget_fit_to_json(*fit)["deferred_records"], 54);
}

// Copies issued by the reader: in each round a GPU sends or receives, not
// both; still every pair once, and rounds that grow with the GPUs.
TEST(ClassRounds, ReaderIssuedCopiesTakeRoundsInWhichAGpuSendsOrReceives) {
    for (const auto& [xml, gpus] : {std::pair{"dgxh100-nvswitch.xml", 8u}, std::pair{"dgx2-nvswitch.xml", 16u}}) {
        const Graph graph = fixture(xml);
        test::PlantedLinks links;
        links.one_way = true;
        const test::PlantedMethod method(links);
        const std::vector<PlannedRecord> plan = plan_of(graph, {&method});
        std::set<Pair> seen;
        std::size_t rounds = 0, full = 0;
        for (const PlannedRecord& p : plan) {
            full += p.measured_as == "full";
            if (p.round.empty()) continue;
            ++rounds;
            std::set<std::string> sources, destinations;
            for (const PlannedRecord& lane : p.round) {
                sources.insert(lane.src_id);
                destinations.insert(lane.dst_id);
                seen.insert({lane.src_id, lane.dst_id});
            }
            for (const std::string& s : sources) EXPECT_FALSE(destinations.count(s)) << p.key << ": " << s;
        }
        std::size_t alone = 0;
        for (const PlannedRecord& p : plan) alone += p.measured_as == "confirmed" && p.round.empty();
        EXPECT_EQ(seen.size() + alone, gpus * (gpus - 1) - full) << xml;
        EXPECT_LE(rounds, 3 * (gpus - 1)) << xml;
        std::printf("%s: %zu one-way rounds, %zu pairs alone\n", xml, rounds, alone);
    }
}

// A lane slower only in its round (a concurrency artefact) is measured again
// alone, found like its class, and kept confirmed with both measurements; the
// round's other lanes are not measured again.
TEST(ClassRounds, ALaneSlowedByItsRoundIsMeasuredAloneAndKept) {
    const Graph graph = fixture("dgxh100-nvswitch.xml");
    const test::PlantedMethod probe({});
    const auto probe_plan = plan_of(graph, {&probe});
    const PlannedRecord* round = nullptr;
    for (const PlannedRecord& p : probe_plan)
        if (!p.round.empty() && !round) round = &p;
    ASSERT_NE(round, nullptr);
    const Pair slowed = lanes_of(*round).at(1);
    test::PlantedLinks links;
    links.round_gbps_of[slowed] = 250;
    const test::PlantedMethod method(links);
    const auto plan = plan_of(graph, {&method});
    ResultsFile results;
    EngineHooks hooks;
    ASSERT_EQ(run_plan(graph, plan, options(), results, hooks), written_record_count(plan));
    for (const Record& r : results.records) {
        EXPECT_NE(r.measured_as, "promoted") << r.key;
        if (r.measured_as != "confirmed") continue;
        EXPECT_TRUE(r.context.contains("round") || (Pair{r.src, r.dst} == slowed)) << r.key;
        const bool twice = r.context.at("confirmation").contains("first_measurement");
        EXPECT_EQ(twice, (Pair{r.src, r.dst} == slowed)) << r.key;
    }
    EXPECT_EQ(method.prepares_of.at(slowed), 2);  // its round, then alone
    EXPECT_EQ(method.rounds_prepared, 7u);
    EXPECT_EQ(method.prepared, 2u + 1u);  // the two full records and the lane measured again
}

namespace {

// A run of the DGX H100 fixture whose every round fails as `links` plants:
// each of the 54 confirmations measured alone, saying why (`why` in its
// context.round_failed), none promoted. The rounds prepared.
std::size_t expect_confirmed_lane_by_lane(const test::PlantedLinks& links, const std::string& why) {
    const Graph graph = fixture("dgxh100-nvswitch.xml");
    const test::PlantedMethod method(links);
    const auto plan = plan_of(graph, {&method});
    ResultsFile results;
    EngineHooks hooks;
    EXPECT_EQ(run_plan(graph, plan, options(), results, hooks), written_record_count(plan));
    std::size_t alone = 0;
    for (const Record& r : results.records) {
        EXPECT_NE(r.measured_as, "promoted") << r.key;
        if (r.measured_as != "confirmed") continue;
        EXPECT_EQ(r.status, "ok") << r.key;
        EXPECT_FALSE(r.context.contains("round")) << r.key;
        if (!r.context.contains("round_failed")) {
            ADD_FAILURE() << r.key << ": confirmed without round_failed";
            continue;
        }
        EXPECT_NE(r.context.at("round_failed").get<std::string>().find(why), std::string::npos) << r.key;
        ++alone;
    }
    EXPECT_EQ(alone, 54u);
    return method.rounds_prepared;
}

}  // namespace

// A round that cannot be prepared costs no promotions: its lanes are
// confirmed one at a time, each saying why.
TEST(ClassRounds, ARoundThatFailsIsConfirmedLaneByLane) {
    test::PlantedLinks links;
    links.round_fails = true;
    EXPECT_EQ(expect_confirmed_lane_by_lane(links, "cannot be prepared"), 7u);
}

// One lane's wrong data fails the round's points for every lane: each lane is
// then confirmed alone (saying why), none promoted for it.
TEST(ClassRounds, ARoundWhoseDataCheckFailsIsConfirmedLaneByLane) {
    test::PlantedLinks links;
    links.round_data_wrong = true;
    EXPECT_EQ(expect_confirmed_lane_by_lane(links, "words wrong"), 7u);
}

// Without rounds, a method confirms only pairs enough to cross every link its
// class's routes cross: on the NVSwitch node each GPU's way in and out once.
// The rest are covered, measured only when a record of their pair is
// promoted: a pair slow in both methods is found by the rounds and then
// confirmed (and promoted) in the other method; no other covered pair is measured.
TEST(ClassRounds, CoveredPairsAreMeasuredOnlyWhenTheirPairIsPromoted) {
    const Graph graph = fixture("dgxh100-nvswitch.xml");
    const RoundsAndCovers probe(graph, std::nullopt);
    std::set<DirectedLink> crossed;  // by the measured records of planted-solo
    std::vector<const PlannedRecord*> covered;
    std::size_t confirmed = 0;
    for (const PlannedRecord& p : probe.plan) {
        if (p.method != &probe.covers) continue;
        if (p.measured_as == "covered") {
            covered.push_back(&p);
            continue;
        }
        confirmed += p.measured_as == "confirmed";
        for (const DirectedLink& l : route_links(graph, *p.src, *p.dst)) crossed.insert(l);
    }
    EXPECT_EQ(confirmed, 6u);  // 8 GPUs' ways out and in, less the representative's and its reverse's
    EXPECT_EQ(covered.size(), 48u);
    for (const PlannedRecord* p : covered)
        for (const DirectedLink& l : route_links(graph, *p->src, *p->dst))
            EXPECT_TRUE(crossed.count(l)) << p->key << ": link " << l.first << " crossed by no measured record";

    const Pair slow{covered.front()->src_id, covered.front()->dst_id};
    const RoundsAndCovers planted(graph, slow);
    const std::vector<PlannedRecord>& plan = planted.plan;
    ResultsFile results;
    EngineHooks hooks;
    const std::size_t measured = run_plan(graph, plan, options(), results, hooks);
    EXPECT_EQ(measured, written_record_count(plan) + 1);  // and the covered record of the slow pair
    std::size_t promoted = 0;
    for (const Record& r : results.records) {
        if (r.measured_as != "promoted") continue;
        ++promoted;
        EXPECT_EQ((Pair{r.src, r.dst}), slow) << r.key;
    }
    EXPECT_EQ(promoted, 2u);  // in the rounds' method, then in the covered one
    EXPECT_NE(results.find(record_key("planted-solo", slow.first, slow.second, {})), nullptr);
}

// A file missing some lanes of a round (a run cut short, records removed):
// the resume measures those lanes as one smaller round, judged with the rest
// of their class, and nothing else.
TEST(ClassRounds, AResumeMeasuresOnlyTheLanesNotYetKeptAsOneRound) {
    const Graph graph = fixture("dgxh100-nvswitch.xml");
    const test::PlantedMethod method({});
    const auto plan = plan_of(graph, {&method});
    ResultsFile results;
    EngineHooks hooks;
    ASSERT_EQ(run_plan(graph, plan, options(), results, hooks), written_record_count(plan));
    const PlannedRecord* round = nullptr;
    for (const PlannedRecord& p : plan)
        if (p.round.size() >= 4 && !round) round = &p;
    ASSERT_NE(round, nullptr);
    std::set<std::string> removed;
    for (std::size_t k = 0; k < 3; ++k) removed.insert(round->round[k].key);
    std::erase_if(results.records, [&](const Record& r) { return removed.count(r.key) > 0; });
    const std::size_t rounds_before = method.rounds_prepared;
    EngineHooks rest;
    EXPECT_EQ(run_plan(graph, plan, options(), results, rest), 3u);
    EXPECT_EQ(method.rounds_prepared, rounds_before + 1);
    EXPECT_EQ(results.records.size(), written_record_count(plan));
    for (const std::string& key : removed) {
        const Record* r = results.find(key);
        ASSERT_NE(r, nullptr) << key;
        EXPECT_EQ(r->measured_as, "confirmed");
        EXPECT_EQ(r->context.at("round").at("lanes").size(), 3u) << r->context.dump();
        // Judged with the class: the representative and every other confirmation.
        EXPECT_EQ(r->context.at("confirmation").at("compared").at(0).at("class").at("links"), 55u);
    }
}

// The CLI prices and admits records by their plan keys: a resume left with
// one lane of a round measures it under the round's key (a lookup of the
// lane's own key would throw), and a covered record owed because its pair
// was promoted is measured on a resume that holds nothing else to do.
TEST(ClassRounds, AResumeOfOneLaneOrOfACoveredRecordUsesThePlansKeys) {
    const Graph graph = fixture("dgxh100-nvswitch.xml");
    const RoundsAndCovers probe(graph, std::nullopt);
    const PlannedRecord* covered = nullptr;
    for (const PlannedRecord& p : probe.plan)
        if (p.measured_as == "covered" && !covered) covered = &p;
    ASSERT_NE(covered, nullptr);
    const Pair slow{covered->src_id, covered->dst_id};
    const RoundsAndCovers planted(graph, slow);
    const std::vector<PlannedRecord>& plan = planted.plan;
    std::map<std::string, double> estimate_of;
    for (const PlannedRecord& p : plan) estimate_of[p.key] = 1.0;
    EngineHooks hooks;
    hooks.estimate = [&](const PlannedRecord& p) { return estimate_of.at(p.key); };
    hooks.admit = [&](const PlannedRecord& p) { return estimate_of.count(p.key) > 0; };
    ResultsFile results;
    const std::size_t all = run_plan(graph, plan, options(), results, hooks);
    const std::string covered_key = record_key("planted-solo", slow.first, slow.second, {});
    ASSERT_NE(results.find(covered_key), nullptr);
    // Take away the covered record and one lane of a round that is not the slow pair's.
    std::string lane_key;
    for (const PlannedRecord& p : plan)
        for (const PlannedRecord& lane : p.round)
            if (lane_key.empty() && (Pair{lane.src_id, lane.dst_id}) != slow) lane_key = lane.key;
    std::erase_if(results.records, [&](const Record& r) { return r.key == covered_key || r.key == lane_key; });
    EngineHooks rest = hooks;
    EXPECT_NO_THROW(EXPECT_EQ(run_plan(graph, plan, options(), results, rest), 2u));
    EXPECT_EQ(results.records.size(), all);
    ASSERT_NE(results.find(covered_key), nullptr);
    EXPECT_EQ(results.find(covered_key)->measured_as, "promoted");
    ASSERT_NE(results.find(lane_key), nullptr);
    EXPECT_EQ(results.find(lane_key)->measured_as, "confirmed");
}

// The plan prices a second pass (run/second_pass.hpp): the most it could add
// is one measurement at 64 MiB of every link a class keeps (each round's
// lanes alone, and the representatives), and a plan of full sweeps only has none.
TEST(ClassRounds, ThePlanPricesASecondPassPerKeptLink) {
    const Graph graph = fixture("dgxh100-nvswitch.xml");
    const test::PlantedMethod method({});
    const std::vector<PlannedRecord> plan = plan_of(graph, {&method});
    const CostModel costs = builtin_cost_model();
    const PlanEstimate e = estimate_plan(plan, options(), costs);
    std::size_t kept = 0, full = 0;
    for (const PlannedRecord& p : plan) {
        kept += p.round.size();
        full += p.measured_as == "full";
    }
    ASSERT_EQ(full, 2u) << "the representative and its reverse, measured in full";
    ++kept;  // the representative; its reverse, measured in full, is in no judgement
    ASSERT_GT(e.second_pass_link_s, 0);
    EXPECT_NEAR(e.second_pass_most_s / e.second_pass_link_s, static_cast<double>(kept), 1e-9);
    // One link alone at one size costs less than its round's confirmation of three sizes.
    for (std::size_t i = 0; i < plan.size(); ++i)
        if (!plan[i].round.empty()) {
            EXPECT_LT(estimate_second_pass(plan[i].round.front(), options(), costs), e.record_s[i]);
            break;
        }
    std::vector<PlannedRecord> full_only;
    for (const PlannedRecord& p : plan)
        if (p.measured_as == "full") full_only.push_back(p);
    EXPECT_EQ(estimate_plan(full_only, options(), costs).second_pass_most_s, 0);
}
