// A class of two links (run/representative_recheck.hpp): a member outside
// the representative's sweep twice is judged beside the representative
// measured again right after it. Pure judgement on hand-made records, then
// the engine on a fixture with a scripted host-to-GPU method of two links.
#include <gtest/gtest.h>

#include "class_fixture.hpp"
#include "planted_method.hpp"
#include "run/device_loss.hpp"
#include "run/engine.hpp"
#include "run/representative_recheck.hpp"
#include "timed_point.hpp"

using namespace hwcomm;

namespace {

using test::kPlateau;

Record link(const std::string& dst, double gbps) { return test::two_point_link(dst, gbps); }

}  // namespace

// nvidia-h200-x2 at 609bce4: pageable memcpy-h2d into gpu0 14.15 GB/s at 64
// MiB at the run's start, into gpu1 7.59 100 s later.
TEST(PairRecheck, BesideTheRepresentativeMeasuredAgainTheMemberIsWithin) {
    const Record sweep = link("gpu0", 14.15), member = link("gpu1", 7.59);
    const ConfirmationVerdict second = judge_confirmation(member, sweep);
    ASSERT_TRUE(second.promote);
    EXPECT_TRUE(judged_by_representative_alone(second));
    const Record again = link("gpu0", 7.70);
    const ConfirmationVerdict beside = judge_confirmation(member, again);
    EXPECT_FALSE(beside.promote);
    const nlohmann::json r = judge_pair_recheck(second, again, beside);
    EXPECT_EQ(r.at("trigger"), "pair");
    EXPECT_EQ(r.at("verdict"), "within");
    const auto& plateau = r.at("compared").at(1);
    EXPECT_NEAR(plateau.at("first_gbps").get<double>(), 14.15, 1e-9);
    EXPECT_NEAR(plateau.at("again_gbps").get<double>(), 7.70, 1e-9);
    EXPECT_NEAR(plateau.at("other_gbps").get<double>(), 7.59, 1e-9);
    EXPECT_FALSE(plateau.at("outside").get<bool>());
    const std::string line = recheck_line("memcpy-h2d|numa0|gpu0", r);
    EXPECT_NE(line.find("its class's other link lay outside its sweep twice"), std::string::npos) << line;
    EXPECT_NE(line.find("+1.4% from the other link; within: the sweep's difference was the time it ran"),
              std::string::npos)
        << line;
}

TEST(PairRecheck, OutsideBesideTheRepresentativeOnTheSameSideIsTheLinksAndAFailureSaysSo) {
    const Record sweep = link("gpu0", 14.15), member = link("gpu1", 7.59);
    const ConfirmationVerdict second = judge_confirmation(member, sweep);
    const Record again = link("gpu0", 13.9);
    const nlohmann::json r = judge_pair_recheck(second, again, judge_confirmation(member, again));
    EXPECT_EQ(r.at("verdict"), "outside again");
    EXPECT_EQ(r.at("compared").at(1).at("side"), "above");  // the representative's side
    // The other way round beside it (member now above): not the first difference repeated.
    const Record slow = link("gpu0", 5.0);
    EXPECT_EQ(judge_pair_recheck(second, slow, judge_confirmation(member, slow)).at("verdict"), "within");
    Record failed = link("gpu0", 7.7);
    failed.points[1].status = "error";
    failed.points[1].error = "verification failed";
    const nlohmann::json f = judge_pair_recheck(second, failed, judge_confirmation(member, failed));
    EXPECT_EQ(f.at("verdict"), "failed");
    EXPECT_EQ(f.at("error"), "64 MiB: verification failed");
}

TEST(PairRecheck, AClassOfThreeLinksIsNotJudgedByTheRepresentativeAlone) {
    const Record a = link("gpu1", 7.59), b = link("gpu2", 7.6);
    const auto verdicts = judge_class({&a, &b}, {}, link("gpu0", 14.15));
    EXPECT_FALSE(judged_by_representative_alone(verdicts.at(0)));
    EXPECT_FALSE(judged_by_representative_alone(ConfirmationVerdict{}));  // nothing compared
}

namespace {

// power8gpudistances: numa0 -> gpu0 and numa0 -> gpu1 are one class (local,
// NVLink 1.0 x2); with only those two pairs kept it has two links, the first
// the representative.
struct PairRun {
    ResultsFile results;
    std::string rep_key, member_key;
    std::vector<std::string> lines;
    const Record* member() const { return results.find(member_key); }
    const Record* rep() const { return results.find(rep_key); }
};

enum class RepresentativeAgain { Fine, DataWrong, DeviceLost };  // its second session: measured again

PairRun run_pair(double rep_first_gbps, double rep_gbps, double member_gbps,
                 RepresentativeAgain again = RepresentativeAgain::Fine) {
    test::PlantedLinks links;
    if (again == RepresentativeAgain::DataWrong) links.wrong_session_of[{"numa0", "gpu0"}] = 1;
    if (again == RepresentativeAgain::DeviceLost) links.lost_session_of[{"numa0", "gpu0"}] = 1;
    links.from_host = true;
    links.rounds = false;
    links.first_gbps_of[{"numa0", "gpu0"}] = rep_first_gbps;
    links.gbps_of[{"numa0", "gpu0"}] = rep_gbps;
    links.gbps_of[{"numa0", "gpu1"}] = member_gbps;
    const test::PlantedMethod method(links);
    const auto f = test::plan_on_fixture("power8gpudistances.xml", method, [](const std::string& s, const std::string& d) {
        return s == "numa0" && (d == "gpu0" || d == "gpu1");
    });
    PairRun run;
    for (const PlannedRecord& p : f.plan) (p.measured_as == "confirmed" ? run.member_key : run.rep_key) = p.key;
    EXPECT_EQ(f.plan.size(), 2u);
    EXPECT_NE(run.rep_key.find("gpu0"), std::string::npos);
    EngineHooks hooks;
    hooks.on_recheck = [&](Record& r) { run.lines.push_back(recheck_line(r.key, r.context.at("recheck"))); };
    EXPECT_EQ(run_plan(f.graph, f.plan, test::ladder_options(), run.results, hooks), 2u);
    return run;
}

}  // namespace

TEST(PairRecheck, AMemberUnlikeASweepMeasuredInAFastSpellStaysConfirmed) {
    const PairRun run = run_pair(560, 400, 400);
    const Record *member = run.member(), *rep = run.rep();
    ASSERT_TRUE(member && rep);
    EXPECT_EQ(member->measured_as, "confirmed");
    const nlohmann::json& confirmation = member->context.at("confirmation");
    EXPECT_TRUE(confirmation.contains("first_measurement"));
    EXPECT_NE(confirmation.at("beside_representative_again").get<std::string>().find("within it measured again"),
              std::string::npos);
    const nlohmann::json& recheck = rep->context.at("recheck");
    EXPECT_EQ(recheck.at("trigger"), "pair");
    EXPECT_EQ(recheck.at("verdict"), "within") << recheck.dump();
    const auto& plateau = recheck.at("compared").back();
    EXPECT_NEAR(plateau.at("first_gbps").get<double>() / plateau.at("again_gbps").get<double>(), 1.4, 0.02);
    EXPECT_GE(rep->context.at("elapsed_s").get<double>(), recheck.at("elapsed_s").get<double>());
    ASSERT_EQ(run.lines.size(), 1u);  // measured again once
}

TEST(PairRecheck, AMemberUnlikeItsRepresentativeBesideItIsPromoted) {
    const PairRun run = run_pair(400, 400, 280);
    const Record *member = run.member(), *rep = run.rep();
    ASSERT_TRUE(member && rep);
    EXPECT_EQ(member->measured_as, "promoted");
    EXPECT_NE(member->context.dump().find("beside the representative measured again right after"), std::string::npos)
        << member->context.dump();
    EXPECT_EQ(rep->context.at("recheck").at("verdict"), "outside again");
}

TEST(PairRecheck, AlikeLinksMeasureNothingAgain) {
    const PairRun run = run_pair(400, 400, 400);
    EXPECT_EQ(run.member()->measured_as, "confirmed");
    EXPECT_FALSE(run.rep()->context.contains("recheck"));
    EXPECT_TRUE(run.lines.empty());
}

TEST(PairRecheck, ARepresentativeWhoseSecondMeasurementFailsLeavesTheMemberPromoted) {
    const PairRun run = run_pair(560, 400, 400, RepresentativeAgain::DataWrong);
    EXPECT_EQ(run.member()->measured_as, "promoted");
    const nlohmann::json& recheck = run.rep()->context.at("recheck");
    EXPECT_EQ(recheck.at("verdict"), "failed") << recheck.dump();
    EXPECT_NE(recheck.at("error").get<std::string>().find("planted: 8 of 1024 words wrong"), std::string::npos);
}

TEST(PairRecheck, ADeviceLostWhileTheRepresentativeIsMeasuredAgainLeavesTheMemberNotMeasured) {
    const PairRun run = run_pair(560, 400, 400, RepresentativeAgain::DeviceLost);
    const Record *member = run.member(), *rep = run.rep();
    ASSERT_TRUE(member && rep);
    EXPECT_EQ(member->status, "error");
    EXPECT_EQ(member->error_type, kNotMeasuredDeviceLost);  // not promoted: nothing was measured on the lost GPUs
    EXPECT_TRUE(member->points.empty());
    EXPECT_EQ(member->context.at("device_lost").at("record").get<std::string>(), run.rep_key);
    const nlohmann::json& recheck = rep->context.at("recheck");
    EXPECT_EQ(recheck.at("verdict"), "failed") << recheck.dump();
    EXPECT_NE(recheck.at("error").get<std::string>().find("cudaErrorIllegalAddress"), std::string::npos);
    EXPECT_EQ(rep->status, "ok");  // its sweep stays
}
