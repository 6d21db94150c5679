// hwcomm run --plan (issue 21): the plan of another machine from its hwloc
// export, the estimate, the classes, budgets and their bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "cli_helpers.hpp"

using namespace hwcomm::test;
using nlohmann::json;

namespace {

const std::string kHwloc = HWCOMM_FIXTURES "/hwloc/";

json plan_of(const Scratch& s, const std::string& xml, const std::string& extra = "") {
    const Result r = run_hwcomm(s, "run --plan --json --input " + kHwloc + xml + " " + extra);
    EXPECT_EQ(r.code, 0) << r.err;
    return json::parse(r.out);
}

// The plan's estimate and full sweeps without under-load, whose scenarios (one
// per loading route today: 1040 records on the DGX H100) come from classes in
// issue 21 item 7, which is not this plan's part.
double without_under_load(const json& plan, const char* what) {
    double v = plan.at(what).get<double>();
    for (const json& m : plan.at("methods"))
        if (m.at("method") == "under-load") v -= m.at(what).get<double>();
    return v;
}

void expect_usage_error(const Result& r, const std::string& mentions) {
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(mentions), std::string::npos) << r.err;
}

}  // namespace

// Issue 21's target: the plan of an 8-GPU node estimated within 10 minutes,
// the whole plan (the cost model refit on the complete default run on
// nvidia-h200-x2 at d15173f prices the DGX H100 at 591 s and the DGX-1 at 570
// s; docs/benchmarks.md).
TEST(CliPlan, EightGpuPlansAreEstimatedWithinTenMinutesWithTheirClasses) {
    Scratch s("plan8");
    if (!built_with_cuda(s)) GTEST_SKIP() << "this build has no CUDA methods";
    for (const char* xml : {"dgxh100-nvswitch.xml", "dgx1.xml"}) {
        const json p = plan_of(s, xml);
        EXPECT_EQ(p.at("schema"), "hwcomm-plan");
        EXPECT_LE(p.at("estimate_s").get<double>(), 600) << xml;
        EXPECT_GT(p.at("estimate_s").get<double>(), 0) << xml;
        const auto records = p.at("records").get<std::size_t>();
        EXPECT_EQ(p.at("full").get<std::size_t>() + p.at("confirmed").get<std::size_t>(), records);
        // A round writes a record per lane; a covered member none unless its pair is promoted.
        std::size_t written = 0, covered = 0;
        for (const json& r : p.at("plan")) {
            if (r.at("measured_as") == "covered") ++covered;
            else written += r.contains("lanes") ? r.at("lanes").size() : 1;
        }
        EXPECT_EQ(written, records);
        EXPECT_EQ(covered, p.at("covered").get<std::size_t>());
        EXPECT_GT(p.at("confirmed").get<std::size_t>(), p.at("full").get<std::size_t>()) << xml;
        // Methods the built-in constants lack are named with whose they take, never a fitted copy.
        const json& fallback = p.at("cost_model").at("fallback_methods");
        EXPECT_NE(std::find(fallback.begin(), fallback.end(), "pairs-sharing-a-link (all-to-host's)"), fallback.end())
            << fallback;
        for (const json& f : fallback) EXPECT_NE(f.get<std::string>().rfind("memcpy-d2d ", 0), 0u) << fallback;
        ASSERT_FALSE(p.at("classes").empty());
        for (const json& c : p.at("classes")) {
            EXPECT_FALSE(c.at("members").empty());
            EXPECT_EQ(c.at("representative"), c.at("members").at(0));
        }
        // Every full record comes before any confirmation, and covered members last.
        int stage = 0;
        for (const json& r : p.at("plan")) {
            const int at = r.at("measured_as") == "full" ? 0 : r.at("measured_as") == "confirmed" ? 1 : 2;
            EXPECT_LE(stage, at) << r.at("key");
            stage = std::max(stage, at);
        }
    }
}

// Issue 21's targets on the runs the built-in constants are fitted on (pooled:
// one default run of each machine kind, " + " between their paths): each
// record estimated again as its plan estimated it, the total within 15%, and
// no method measured for 5 s or more off by a factor of two or more (an
// estimate between half and twice what it measured). Pooling centres the
// total across machine kinds and hosts (docs/benchmarks.md "Twelfth
// session") at the price of the host-side methods of each run: at 74e89f1 the
// one-H100 run's unified-memory demand paging, pinned host-to-device copies
// and disk reads (9.5, 8.1 and 7.8 s) were estimated -45%, -29% and +40%,
// while another H100 host in the same call measured 6.7, 7.1 and 12.9 s.
TEST(CliPlan, TheBuiltInCostsEstimateTheirOwnRunWithinTheIssuesTargets) {
    Scratch s("costcheck");
    if (!built_with_cuda(s)) GTEST_SKIP() << "this build has no CUDA methods";
    const json p = plan_of(s, "dgx1.xml");
    const std::string fitted_on = p.at("cost_model").at("fitted_on").get<std::string>();
    std::vector<std::string> files;
    const std::string sep = " + ";
    for (std::size_t at = 0;;) {
        const std::size_t next = fitted_on.find(sep, at);
        files.push_back(fitted_on.substr(at, next - at));
        if (next == std::string::npos) break;
        at = next + sep.size();
    }
    std::size_t all_records = 0;
    for (const std::string& file : files) {
        const Result r = run_hwcomm(s, "__generate cost-check --from " HWCOMM_FIXTURES "/../../" + file);
        ASSERT_EQ(r.code, 0) << r.err;
        const std::size_t total = r.out.find("| **total** |");
        ASSERT_NE(total, std::string::npos) << r.out;
        double measured = 0, estimated = 0;
        std::size_t records = 0;
        ASSERT_EQ(std::sscanf(r.out.c_str() + total, "| **total** | %zu | %lf | %lf |", &records, &measured, &estimated), 3)
            << r.out;
        all_records += records;
        EXPECT_LE(std::fabs(estimated / measured - 1), 0.15) << file << "\n" << r.out;
        // The method rows: | name | records | measured s | estimate s | error |
        std::size_t large = 0;
        for (std::size_t at = r.out.find("|---"); at != std::string::npos && at < total;) {
            at = r.out.find('\n', at);
            if (at == std::string::npos || at + 1 >= total) break;
            char name[64];
            std::size_t n = 0;
            double m = 0, e = 0;
            if (std::sscanf(r.out.c_str() + at + 1, "| %63[^ |] | %zu | %lf | %lf |", name, &n, &m, &e) == 4 && m >= 5) {
                ++large;
                EXPECT_GT(e, m / 2) << file << ": " << name;
                EXPECT_LT(e, m * 2) << file << ": " << name;
            }
            ++at;
        }
        EXPECT_GE(large, 3u) << file << "\n" << r.out;
    }
    EXPECT_GT(all_records, 100u);
}

TEST(CliPlan, FullSweepsGrowWithClassesNotWithGpus) {
    Scratch s("plan16");
    if (!built_with_cuda(s)) GTEST_SKIP() << "this build has no CUDA methods";
    const json eight = plan_of(s, "dgxh100-nvswitch.xml");
    const json sixteen = plan_of(s, "dgx2-nvswitch.xml");
    // Twice the GPUs: at most twice the full sweeps (classes, not pairs), and
    // at most twice the estimate (issue 21: no faster than linear), although
    // the ordered GPU pairs are 4.3 times as many (240 against 56): they are
    // confirmed n - 1 rounds at a time, or covered by pairs crossing the same links.
    EXPECT_LE(without_under_load(sixteen, "full"), 2 * without_under_load(eight, "full"));
    EXPECT_LE(without_under_load(sixteen, "estimate_s"), 2 * without_under_load(eight, "estimate_s"));
    for (const auto& [plan, gpus] : {std::pair{&eight, 8u}, std::pair{&sixteen, 16u}})
        for (const json& m : plan->at("methods"))
            if (m.at("method") == "memcpy-peer") {
                EXPECT_EQ(m.at("rounds"), gpus - 1) << m;
            }
    // --exhaustive: every record full.
    const json all = plan_of(s, "dgxh100-nvswitch.xml", "--exhaustive");
    EXPECT_EQ(all.at("confirmed"), 0);
    EXPECT_GT(all.at("estimate_s").get<double>(), 2 * eight.at("estimate_s").get<double>());
}

TEST(CliPlan, ABudgetIsFittedByAnnouncedStepsInOrder) {
    Scratch s("budget");
    const json free = plan_of(s, "dgxh100-nvswitch.xml");
    // Three quarters: above the minimum plan with and without CUDA methods
    // (without, the CPU methods' worker-count probes, which no step shortens,
    // keep the minimum at 54% of the plan).
    const double budget = free.at("estimate_s").get<double>() * 3 / 4;
    const Result r = run_hwcomm(s, "run --plan --json --input " + kHwloc + "dgxh100-nvswitch.xml --budget " +
                                       std::to_string(static_cast<int>(budget)) + "s");
    ASSERT_EQ(r.code, 0) << r.err;
    const json p = json::parse(r.out);
    EXPECT_LE(p.at("estimate_s").get<double>(), budget);
    const json& steps = p.at("budget").at("steps");
    ASSERT_FALSE(steps.empty());
    EXPECT_EQ(steps.at(0).at("step"), "confirmation-sizes");
    double before = free.at("estimate_s").get<double>();
    for (const json& step : steps) {
        EXPECT_NEAR(step.at("estimate_before_s").get<double>(), before, 1e-6);
        before = step.at("estimate_after_s").get<double>();
        EXPECT_NE(r.err.find("budget step " + step.at("step").get<std::string>()), std::string::npos) << r.err;
    }
}

TEST(CliPlan, BadInputIsOneLineAndWritesNothing) {
    Scratch s("planbad");
    const std::string dgx = "--input " + kHwloc + "dgx1.xml";
    expect_usage_error(run_hwcomm(s, "run --plan " + dgx + " --budget ten"), "--budget 'ten'");
    expect_usage_error(run_hwcomm(s, "run --budget 0 -o a.json"), "positive");
    expect_usage_error(run_hwcomm(s, "run --budget=-5m -o a.json"), "positive");
    expect_usage_error(run_hwcomm(s, "run --plan --resume a.json"), "--resume");
    expect_usage_error(run_hwcomm(s, "run --json -o a.json"), "--plan");
    expect_usage_error(run_hwcomm(s, "run --exhaustive --resume a.json"), "--resume");
    expect_usage_error(run_hwcomm(s, "run --plan " + dgx + " --calibrate nothing.json"), "nothing.json");
    // A budget below the minimum plan says what the minimum is.
    const Result tiny = run_hwcomm(s, "run --plan " + dgx + " --budget 1s");
    expect_usage_error(tiny, "minimum plan");
    EXPECT_NE(tiny.err.find("needs about"), std::string::npos) << tiny.err;
    EXPECT_EQ(std::distance(fs::directory_iterator(s.dir), {}), 0);
}

TEST(CliPlan, AnotherMachinesCalibrationWarnsAndKeepsTheBuiltInCosts) {
    Scratch s("calibrate");
    const Result r = run_hwcomm(s, "run --plan --input " + kHwloc + "dgx1.xml --calibrate " HWCOMM_FIXTURES
                                   "/../../docs/examples/h200x2/results-default-all-methods.json.gz");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("warning: --calibrate"), std::string::npos) << r.err;
    EXPECT_NE(r.out.find("cost model: built-in"), std::string::npos) << r.out;
}

// The TMA and loaded latency chases and gpumem-latency's ring layout are
// second views of links the random SM chase confirms: on the DGX H100 they
// are measured on class representatives only, gpumem-latency's random chase
// on every member.
TEST(CliPlan, SecondViewsOfAChasedLinkAreMeasuredOnRepresentativesOnly) {
    Scratch s("plan-views");
    if (!built_with_cuda(s)) GTEST_SKIP() << "this build has no CUDA methods";
    const json plan = plan_of(s, "dgxh100-nvswitch.xml");
    std::size_t random_confirmed = 0, views = 0;
    for (const json& r : plan.at("plan")) {
        const std::string method = r.at("method");
        const json params = r.value("params", json::object());
        const bool ring = params.value("layout", "") == "ring128";
        const bool view = method == "gpumem-tma-latency" || method == "gpumem-loaded-latency" ||
                          (method == "gpumem-latency" && ring);
        if (view) {
            ++views;
            EXPECT_EQ(r.at("measured_as"), "full") << r.dump();
        } else if (method == "gpumem-latency" && r.at("measured_as") == "confirmed") {
            ++random_confirmed;
        }
    }
    EXPECT_GT(views, 0u);
    EXPECT_GT(random_confirmed, 0u);
}

namespace {

// pairs-sharing-a-link records by class: the link each set's two routes compete for.
std::map<std::string, std::vector<std::string>> shared_links_by_class(const json& plan) {
    std::map<std::string, std::vector<std::string>> out;
    for (const json& r : plan.at("plan"))
        if (r.at("method") == "pairs-sharing-a-link") out[r.at("class")].push_back(r.at("shared_link"));
    return out;
}

}  // namespace

// Sets of two routes competing for one link: one per link and class is
// measured, so they grow with the GPUs (each GPU's links), not with the pairs
// of routes through each link (DGX-2: 1808 sets, 92 measured).
TEST(CliPlan, SetsCompetingForOneLinkAreMeasuredOncePerLinkAndClass) {
    Scratch s("plan-shared");
    if (!built_with_cuda(s)) GTEST_SKIP() << "this build has no CUDA methods";
    for (const auto& [xml, gpus] : {std::pair{"dgxh100-nvswitch.xml", 8u}, std::pair{"dgx2-nvswitch.xml", 16u}}) {
        const json plan = plan_of(s, xml);
        const json all = plan_of(s, xml, "--exhaustive");
        const auto planned = shared_links_by_class(plan);
        const auto every = shared_links_by_class(all);  // --exhaustive names the classes too
        ASSERT_EQ(planned.size(), every.size()) << xml;  // every class keeps its representative
        std::size_t sets = 0, measured = 0;
        for (const auto& [cls, links] : planned) {
            EXPECT_LE(links.size(), gpus) << xml << " " << cls;
            // Each link once, and every link the class's sets compete for is tested.
            const std::set<std::string> distinct(links.begin(), links.end());
            EXPECT_EQ(distinct.size(), links.size()) << xml << " " << cls;
            EXPECT_EQ(distinct, std::set<std::string>(every.at(cls).begin(), every.at(cls).end())) << xml << " " << cls;
            sets += every.at(cls).size();
            measured += links.size();
        }
        EXPECT_LT(measured * 5, sets) << xml;
        bool noted = false;
        for (const json& n : plan.at("notes")) noted |= n.get<std::string>().rfind("pairs-sharing-a-link: ", 0) == 0;
        EXPECT_TRUE(noted) << plan.at("notes");
    }
}
