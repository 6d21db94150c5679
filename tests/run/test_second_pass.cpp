// A class measured twice (run/second_pass.hpp): the pure plan, entry and log
// line on hand-made records, then the engine on a scripted host-to-GPU method
// of four links of one class (dgx1.xml: numa0 -> gpu0-3, local).
#include <gtest/gtest.h>

#include <map>

#include "class_fixture.hpp"
#include "planted_method.hpp"
#include "run/engine.hpp"
#include "run/second_pass.hpp"
#include "timed_point.hpp"

using namespace hwcomm;

namespace {

using test::kPlateau;

Record link(const std::string& dst, double gbps) { return test::two_point_link(dst, gbps); }

using test::pointers;

}  // namespace

// nvidia-h200-x4 at 49947bf: pageable d2h of one class 8.02-9.59 GB/s at 64 MiB, once each.
TEST(SecondPass, LinksSpreadBeyondTheToleranceAtThePlateauAreMeasuredAgainThere) {
    const std::vector<Record> noisy = {link("gpu0", 9.0), link("gpu1", 10.0), link("gpu2", 10.5), link("gpu3", 11.0)};
    const auto pass = plan_second_pass(pointers(noisy));
    ASSERT_TRUE(pass);
    EXPECT_EQ(pass->bytes, kPlateau);
    ASSERT_EQ(pass->first_gbps.size(), 4u);
    EXPECT_NEAR(pass->first_gbps[0], 9.0, 1e-9);
    EXPECT_NEAR(pass->spread, 11.0 / 9.0 - 1, 1e-9);
    EXPECT_EQ(pass->reason, "its 4 links spread +22.2% at 64 MiB (9-11 GB/s), measured one after another");
    // Within the tolerance, one link, or no size in analyze's window: nothing.
    const std::vector<Record> quiet = {link("gpu0", 10.0), link("gpu1", 10.2), link("gpu2", 10.4)};
    EXPECT_FALSE(plan_second_pass(pointers(quiet)));
    EXPECT_FALSE(plan_second_pass({&noisy[0]}));
    std::vector<Record> small = noisy;
    for (Record& r : small) r.points.pop_back();  // 1 B only
    EXPECT_FALSE(plan_second_pass(pointers(small)));
    // A representative measured again beside its class counts by that measurement.
    std::vector<Record> rechecked = noisy;
    rechecked[0].context["recheck"] = {
        {"verdict", "within"},
        {"compared", {{{"bytes", kPlateau}, {"axes", nlohmann::json::object()}, {"again_gbps", 10.3}}}}};
    EXPECT_NEAR(class_view_gbps(rechecked[0], kPlateau), 10.3, 1e-9);
    EXPECT_NEAR(plan_second_pass(pointers(rechecked))->spread, 11.0 / 10.0 - 1, 1e-9);
    rechecked[0].context["recheck"]["verdict"] = "failed";
    EXPECT_NEAR(class_view_gbps(rechecked[0], kPlateau), 9.0, 1e-9);
}

TEST(SecondPass, EachLinkKeepsBothMeasurementsAndTheLineSaysWhatTheMeansSpread) {
    const std::vector<Record> first = {link("gpu0", 9.0), link("gpu1", 10.0), link("gpu2", 10.5), link("gpu3", 11.0)};
    const auto pass = plan_second_pass(pointers(first));
    ASSERT_TRUE(pass);
    const nlohmann::json e = second_pass_entry(*pass, 1, link("gpu1", 9.2), 0.25);
    EXPECT_NEAR(e.at("first_gbps").get<double>(), 10.0, 1e-9);
    EXPECT_NEAR(e.at("again_gbps").get<double>(), 9.2, 1e-9);
    EXPECT_EQ(e.at("position"), nlohmann::json::array({2, 4}));
    EXPECT_EQ(e.at("bytes"), kPlateau);
    Record failed = link("gpu2", 10.0);
    failed.points[1].status = "error";
    failed.points[1].error = "verification failed";
    const nlohmann::json f = second_pass_entry(*pass, 2, failed, 0.1);
    EXPECT_FALSE(f.contains("again_gbps"));
    EXPECT_EQ(f.at("error"), "verification failed");
    std::vector<nlohmann::json> entries;
    const double again[] = {10.8, 9.2, 10.0, 9.4};
    for (std::size_t k = 0; k < 4; ++k) entries.push_back(second_pass_entry(*pass, k, link("gpu", again[k]), 0.1));
    const std::string line = second_pass_line("memcpy-h2d|numa0|gpu0", *pass, entries);
    // Means: bytes over the mean time of 9.0 and 10.8, 10.0 and 9.2, ...: 9.583-10.24 GB/s.
    EXPECT_EQ(line,
              "memcpy-h2d|numa0|gpu0: its 4 links spread +22.2% at 64 MiB (9-11 GB/s), measured one after another; "
              "each measured once more there: the means of the two 9.583-10.24 GB/s (+6.9%), one link moved up to "
              "+20.0%");
    entries[2] = f;
    EXPECT_NE(second_pass_line("k", *pass, entries).find(", 1 failed"), std::string::npos);
}

namespace {

struct ClassRun {
    ResultsFile results;
    std::string rep_key;
    std::vector<std::string> lines;
    std::size_t prepared = 0;
};

// dgx1.xml: numa0 -> gpu0-3 are one class (local); `sessions`: per GPU, the rate of each session.
ClassRun run_class(const std::map<std::string, std::vector<double>>& sessions) {
    test::PlantedLinks links;
    links.from_host = true;
    links.rounds = false;
    for (const auto& [gpu, rates] : sessions) links.gbps_by_session[{"numa0", gpu}] = rates;
    const test::PlantedMethod method(links);
    const auto f = test::plan_on_fixture("dgx1.xml", method, [](const std::string& s, const std::string& d) {
        return s == "numa0" && (d == "gpu0" || d == "gpu1" || d == "gpu2" || d == "gpu3");
    });
    ClassRun run;
    std::size_t confirmed = 0;
    for (const PlannedRecord& p : f.plan) {
        if (p.measured_as == "confirmed") ++confirmed;
        else run.rep_key = p.key;
    }
    EXPECT_EQ(f.plan.size(), 4u);
    EXPECT_EQ(confirmed, 3u);
    EngineHooks hooks;
    hooks.on_second_pass = [&](const std::string& line) { run.lines.push_back(line); };
    EXPECT_EQ(run_plan(f.graph, f.plan, test::ladder_options(), run.results, hooks), 4u);
    run.prepared = method.prepared;
    return run;
}

double at_plateau(const Record& r) {
    for (const Point& p : r.points)
        if (p.bytes == kPlateau) return p.bandwidth_gbps;
    return 0;
}

}  // namespace

TEST(SecondPass, TheEngineMeasuresANoisyClassOnceMoreInOrderAndAQuietOneNot) {
    const std::map<std::string, std::vector<double>> rates = {
        {"gpu0", {9.0, 10.8}}, {"gpu1", {10.0, 9.2}}, {"gpu2", {10.5, 10.0}}, {"gpu3", {11.0, 9.4}}};
    const ClassRun noisy = run_class(rates);
    EXPECT_EQ(noisy.prepared, 8u);  // four first measurements, four second
    ASSERT_EQ(noisy.lines.size(), 1u);
    EXPECT_NE(noisy.lines[0].find(noisy.rep_key + ": its 4 links spread +22.2% at 64 MiB"), std::string::npos)
        << noisy.lines[0];
    std::size_t position = 0;
    for (const Record& r : noisy.results.records) {
        ASSERT_TRUE(r.context.contains("second_pass")) << r.key;
        const nlohmann::json& e = r.context.at("second_pass");
        const double first = rates.at(r.dst)[0], again = rates.at(r.dst)[1];
        EXPECT_EQ(r.measured_as, r.key == noisy.rep_key ? "full" : "confirmed");
        EXPECT_NEAR(e.at("first_gbps").get<double>() / first, 1, 1e-3) << r.key;
        EXPECT_NEAR(at_plateau(r) / first, 1, 1e-3) << r.key;  // the record keeps its own measurement
        EXPECT_NEAR(e.at("again_gbps").get<double>() / again, 1, 1e-3) << r.key;
        EXPECT_EQ(e.at("bytes"), kPlateau);
        position += e.at("position").at(0).get<std::size_t>();
        if (r.key == noisy.rep_key) {
            EXPECT_EQ(e.at("position").at(0), 1);  // the representative first
        }
    }
    EXPECT_EQ(position, 1u + 2 + 3 + 4);
    // Within 5%: nothing measured twice.
    const ClassRun quiet = run_class({{"gpu0", {10.0}}, {"gpu1", {10.2}}, {"gpu2", {10.1}}, {"gpu3", {10.3}}});
    EXPECT_EQ(quiet.prepared, 4u);
    EXPECT_TRUE(quiet.lines.empty());
    for (const Record& r : quiet.results.records) EXPECT_FALSE(r.context.contains("second_pass")) << r.key;
}
