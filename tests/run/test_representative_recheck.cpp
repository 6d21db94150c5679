// A representative its class's confirmations put outside (run/
// representative_recheck.hpp) is measured again beside them: within, its
// first sweep's difference was the time it ran; outside again on the same
// side, the link differs. Pure judgement on hand-made records, then the
// engine on the DGX H100 fixture with a scripted method.
#include <gtest/gtest.h>

#include "class_fixture.hpp"
#include "planted_method.hpp"
#include "run/engine.hpp"
#include "run/representative_recheck.hpp"
#include "timed_point.hpp"

using namespace hwcomm;

namespace {

using test::kPlateau;

Record link(const std::string& dst, double gbps) { return test::two_point_link(dst, gbps); }

using test::pointers;

// nvidia-h200-x4 at 6da8c40: pageable memcpy-h2d into gpu0 10.07 GB/s at 64
// MiB, its three siblings 6.80, 6.88, 6.81.
const std::vector<Record> kSiblings = {link("gpu1", 6.80), link("gpu2", 6.88), link("gpu3", 6.81)};

}  // namespace

TEST(RepresentativeRecheck, TheClassNamesTheSizesWhereTheRepresentativeLiesOutside) {
    const auto first = representative_outside(judge_class(pointers(kSiblings), {}, link("gpu0", 10.07)));
    ASSERT_EQ(first.size(), 1u);  // the plateau; at 1 B all four took 2 us
    EXPECT_EQ(first[0].at("bytes"), kPlateau);
    EXPECT_EQ(first[0].at("side"), "above");
    EXPECT_EQ(first[0].at("links"), 4);
    EXPECT_NEAR(first[0].at("class_median_gbps").get<double>(), 6.845, 0.01);
    EXPECT_TRUE(representative_outside(judge_class(pointers(kSiblings), {}, link("gpu0", 6.85))).empty());
}

TEST(RepresentativeRecheck, MeasuredAgainAmongItsSiblingsTheRepresentativeIsWithin) {
    const auto first = representative_outside(judge_class(pointers(kSiblings), {}, link("gpu0", 10.07)));
    const nlohmann::json r = judge_recheck(first, link("gpu0", 6.90), pointers(kSiblings));
    EXPECT_EQ(r.at("verdict"), "within");
    const auto& at = r.at("compared").at(1);
    EXPECT_EQ(at.at("bytes"), kPlateau);
    EXPECT_NEAR(at.at("first_gbps").get<double>(), 10.07, 1e-9);
    EXPECT_NEAR(at.at("again_gbps").get<double>(), 6.90, 1e-9);
    EXPECT_FALSE(at.at("outside").get<bool>());
    EXPECT_NE(r.at("reason").get<std::string>().find("+47.1% from the median of its class's 4 links"),
              std::string::npos)
        << r.at("reason");
    const std::string line = recheck_line("memcpy-h2d|numa0|gpu0", r);
    EXPECT_NE(line.find("within its class: the first sweep's difference was the time it ran"), std::string::npos) << line;
}

TEST(RepresentativeRecheck, OutsideAgainOnTheSameSideIsTheLinks) {
    const auto first = representative_outside(judge_class(pointers(kSiblings), {}, link("gpu0", 10.07)));
    EXPECT_EQ(judge_recheck(first, link("gpu0", 9.8), pointers(kSiblings)).at("verdict"), "outside again");
    // Outside the other way: the first difference did not repeat.
    const nlohmann::json below = judge_recheck(first, link("gpu0", 5.0), pointers(kSiblings));
    EXPECT_EQ(below.at("verdict"), "within");
    EXPECT_EQ(below.at("compared").at(1).at("side"), "below");
    const std::string line = recheck_line("memcpy-h2d|numa0|gpu0", below);  // not "within its class"
    EXPECT_NE(line.find("64 MiB 5 GB/s, -26.5%; outside the other way this time"), std::string::npos) << line;
}

TEST(RepresentativeRecheck, AFailedSecondMeasurementSaysSo) {
    const auto first = representative_outside(judge_class(pointers(kSiblings), {}, link("gpu0", 10.07)));
    Record again = link("gpu0", 6.9);
    again.points[1].status = "error";
    again.points[1].error = "verification failed";
    const nlohmann::json r = judge_recheck(first, again, pointers(kSiblings));
    EXPECT_EQ(r.at("verdict"), "failed");
    EXPECT_EQ(r.at("error"), "64 MiB: verification failed");
}

namespace {

using Planned = test::PlannedFixture;

Planned plan_dgx_h100(const test::PlantedMethod& method) { return test::plan_on_fixture("dgxh100-nvswitch.xml", method); }

RunOptions options() { return test::ladder_options(); }

// The representative of the class with the most confirmations.
std::string busiest_representative(const std::vector<PlannedRecord>& plan) {
    std::map<std::string, std::size_t> n;
    for (const PlannedRecord& p : plan)
        if (p.measured_as == "confirmed") n[p.representative_key] += p.round.empty() ? 1 : p.round.size();
    return std::max_element(n.begin(), n.end(), [](const auto& a, const auto& b) { return a.second < b.second; })->first;
}

const Record* find(const ResultsFile& results, const std::string& key) { return results.find(key); }

// Runs the DGX H100 plan with the busiest class's representative moving
// `first_gbps` in its first session and `gbps` after (400 GB/s elsewhere).
ResultsFile run_with_representative(double first_gbps, double gbps, std::string& rep_key,
                                    std::vector<std::string>& notes) {
    const test::PlantedMethod probe({});
    const Planned first = plan_dgx_h100(probe);
    rep_key = busiest_representative(first.plan);
    test::PlantedLinks links;
    for (const PlannedRecord& p : first.plan)
        if (p.key == rep_key) {
            links.first_gbps_of[{p.src_id, p.dst_id}] = first_gbps;
            links.gbps_of[{p.src_id, p.dst_id}] = gbps;
        }
    const test::PlantedMethod method(links);
    const Planned f = plan_dgx_h100(method);
    ResultsFile results;
    EngineHooks hooks;
    hooks.on_recheck = [&](Record& representative) {
        notes.push_back(recheck_line(representative.key, representative.context.at("recheck")));
    };
    EXPECT_EQ(run_plan(f.graph, f.plan, options(), results, hooks), written_record_count(f.plan));
    return results;
}

std::size_t rechecked(const ResultsFile& results) {
    std::size_t n = 0;
    for (const Record& r : results.records) n += r.context.contains("recheck");
    return n;
}

std::size_t promoted(const ResultsFile& results) {
    std::size_t n = 0;
    for (const Record& r : results.records) n += r.measured_as == "promoted";
    return n;
}

}  // namespace

TEST(RepresentativeRecheck, ARepresentativeSweptInAFastSpellIsMeasuredAgainAndFoundWithin) {
    std::string rep;
    std::vector<std::string> notes;
    const ResultsFile results = run_with_representative(560, 400, rep, notes);
    EXPECT_EQ(promoted(results), 0u);
    EXPECT_EQ(rechecked(results), 1u);
    const Record* r = find(results, rep);
    ASSERT_NE(r, nullptr);
    const nlohmann::json& recheck = r->context.at("recheck");
    EXPECT_EQ(recheck.at("verdict"), "within") << recheck.dump();
    std::size_t outside_first = 0;
    for (const auto& e : recheck.at("compared")) {
        EXPECT_FALSE(e.at("outside").get<bool>()) << e.dump();
        if (!e.contains("first_gbps")) continue;
        ++outside_first;
        EXPECT_GT(e.at("first_gbps").get<double>(), e.at("again_gbps").get<double>());
    }
    EXPECT_GE(outside_first, 1u);
    // On the plateau the first sweep read the planted 560 GB/s, the second 400.
    const auto& plateau = recheck.at("compared").back();
    ASSERT_TRUE(plateau.contains("first_gbps"));
    EXPECT_NEAR(plateau.at("first_gbps").get<double>() / plateau.at("again_gbps").get<double>(), 1.4, 0.02);
    EXPECT_GE(r->context.at("elapsed_s").get<double>(), recheck.at("elapsed_s").get<double>());
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_EQ(notes[0].rfind(rep + ": its confirmations put it outside its class", 0), 0u) << notes[0];
}

TEST(RepresentativeRecheck, ARepresentativeThatIsUnlikeItsClassIsOutsideAgain) {
    std::string rep;
    std::vector<std::string> notes;
    const ResultsFile results = run_with_representative(560, 560, rep, notes);
    EXPECT_EQ(promoted(results), 0u);  // its siblings are alike
    const Record* r = find(results, rep);
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->context.at("recheck").at("verdict"), "outside again");
    EXPECT_EQ(rechecked(results), 1u);
}

TEST(RepresentativeRecheck, NoRepresentativeIsMeasuredAgainWhenEveryLinkIsAlike) {
    std::string rep;
    std::vector<std::string> notes;
    const ResultsFile results = run_with_representative(400, 400, rep, notes);
    EXPECT_EQ(rechecked(results), 0u);
    EXPECT_TRUE(notes.empty());
}
