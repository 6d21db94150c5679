// The cost model: the built-in table is the fit of the run it names, a fit
// reproduces the file it was fitted on, a time-budget-bound method costs per
// size and not per byte, and --time-budget and --min-samples scale what they
// bound; budgets parse and fit step by step.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/error.hpp"
#include "io/results_file.hpp"
#include "run/budget.hpp"
#include "run/cost_fit.hpp"
#include "run/cost_model.hpp"
#include "run/cost_table_source.hpp"

using namespace hwcomm;

namespace {

const std::string kSourceRoot = HWCOMM_FIXTURES "/../..";

std::string file_text(const std::string& path) {
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

constexpr std::uint64_t kMiB = 1 << 20;

// A point of `bytes` that took `seconds` and stopped for `reason`.
Point point(std::uint64_t bytes, double seconds, const char* reason) {
    Point p;
    p.bytes = bytes;
    p.bandwidth_gbps = 10;
    p.elapsed_s = seconds;
    p.stop_reason = reason;
    return p;
}

// The run's octave sizes 1 KiB .. 1 GiB, as meta.options.sizes says them.
ResultsFile file_with_sizes() {
    ResultsFile file;
    nlohmann::json sizes = nlohmann::json::array();
    for (std::uint64_t b = 1024; b <= (std::uint64_t{1} << 30); b *= 2) sizes.push_back(b);
    file.meta["options"] = {{"min_samples", 5}, {"time_budget_s", 0.2}, {"sizes", sizes}};
    return file;
}

// A ladder record: every octave size, plus `refined` intermediate sizes above
// 1 MiB; each point `cost(bytes)`, `reason` its stop; `setup` outside the points.
Record laddered(const std::string& method, double setup, const std::function<double(std::uint64_t)>& cost,
                const char* reason, int refined = 0) {
    Record r;
    r.method = method;
    r.src = r.dst = "numa0";
    r.key = record_key(r.method, r.src, r.dst, {});
    r.measured_as = "full";
    r.status = "ok";
    double total = setup;
    const auto add = [&](std::uint64_t b) {
        r.points.push_back(point(b, cost(b), reason));
        total += cost(b);
    };
    for (std::uint64_t b = 1024; b <= (std::uint64_t{1} << 30); b *= 2) add(b);
    for (int i = 0; i < refined; ++i) add(kMiB + 1000 * static_cast<std::uint64_t>(i + 1));
    r.context["elapsed_s"] = total;
    r.context["ladder"] = {{"stop", "largest size"}};
    return r;
}

std::vector<std::uint64_t> octaves() {
    std::vector<std::uint64_t> out;
    for (std::uint64_t b = 1024; b <= (std::uint64_t{1} << 30); b *= 2) out.push_back(b);
    return out;
}

StoppingOptions stopping(std::size_t min_samples, double time_budget_s) {
    StoppingOptions o;
    o.min_samples = min_samples;
    o.time_budget_s = time_budget_s;
    return o;
}

}  // namespace

TEST(CostModel, TheBuiltInTableIsTheFitOfTheRunItNames) {
    const BuiltinCostTable& table = builtin_cost_table();
    ASSERT_FALSE(table.methods.empty());
    // One file, or several pooled (" + " between them).
    std::vector<ResultsFile> files;
    const std::string sep = kPooledFilesSeparator;
    for (std::size_t at = 0;;) {
        const std::size_t next = table.results_file.find(sep, at);
        files.push_back(load_results_file(kSourceRoot + "/" + table.results_file.substr(at, next - at)));
        if (next == std::string::npos) break;
        at = next + sep.size();
    }
    const ResultsFile file = pooled_results(files);
    // To the byte: the committed table is what scripts/fit-cost-constants.sh writes from those files.
    EXPECT_EQ(cost_table_source(fit_method_costs(file), table.description, table.results_file),
              file_text(kSourceRoot + "/src/run/builtin_cost_table.cpp"))
        << "refit: scripts/fit-cost-constants.sh " << table.results_file;
    const CostModel builtin = builtin_cost_model();
    EXPECT_NE(builtin.source.find(table.description), std::string::npos);
}

TEST(CostModel, AFitPredictsTheFileItWasFittedOn) {
    ResultsFile file = file_with_sizes();
    // A noisy method (every point on the time budget, refined above 1 MiB) and a
    // converging one (a cost per byte), each with its setup.
    const auto noisy = [](std::uint64_t b) { return 0.21 + 0.01 * static_cast<double>(b) / (1 << 30); };
    const auto quiet = [](std::uint64_t b) { return 0.002 + 0.5 * static_cast<double>(b) / (1 << 30); };
    file.records.push_back(laddered("cpu-read", 7.0, noisy, "time_budget", 4));
    file.records.push_back(laddered("cpu-read", 6.0, noisy, "time_budget", 2));
    file.records.push_back(laddered("memcpy-h2d", 0.3, quiet, "converged"));
    const auto fitted = fit_method_costs(file);
    const CostModel model = calibrated_cost_model(file, "x.json", builtin_cost_model());
    EXPECT_NE(model.source.find("x.json"), std::string::npos);
    EXPECT_EQ(model.of("cpu-read").records, 2u);
    EXPECT_NEAR(model.of("cpu-read").setup_s, 6.5, 1e-9);
    // Refinements: 3 intermediate sizes per record on average in the 1-16 MiB band's 4 first-pass sizes.
    EXPECT_NEAR(model.of("cpu-read").band_of(2 * kMiB).points_per_size, 7.0 / 4.0, 1e-9);
    double measured = 0, predicted = 0;
    for (const Record& r : file.records) {
        measured += r.context.at("elapsed_s").get<double>();
        predicted += model.record_seconds(r.method, {octaves(), true}, 1, stopping(5, 0.2));
    }
    EXPECT_NEAR(predicted / measured, 1.0, 0.01) << predicted << " vs " << measured;
    // Methods the file lacks keep the built-in constants.
    EXPECT_EQ(model.of("memcpy-d2h").setup_s, builtin_cost_model().of("memcpy-d2h").setup_s);
}

TEST(CostModel, ATimeBudgetBoundMethodCostsPerSizeNotPerByte) {
    ResultsFile file = file_with_sizes();
    file.records.push_back(laddered("disk-read", 0, [](std::uint64_t) { return 0.2; }, "time_budget"));
    const CostModel model = calibrated_cost_model(file, "x.json", builtin_cost_model());
    const StoppingOptions rule = stopping(5, 0.2);
    const double small = model.record_seconds("disk-read", {{4096, 8192, 16384, 32768}, false}, 1, rule);
    const double large = model.record_seconds("disk-read", {{256 * kMiB, 512 * kMiB, 1024 * kMiB, 2048 * kMiB}, false}, 1, rule);
    const double eight = model.record_seconds("disk-read", {{1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072}, false}, 1, rule);
    EXPECT_NEAR(large / small, 1.0, 1e-9);  // 2^16 times the bytes, the same cost
    EXPECT_NEAR(eight / small, 2.0, 1e-9);  // twice the sizes, twice the cost
    EXPECT_NEAR(small, 4 * 0.2, 1e-9);
}

TEST(CostModel, TheTimeBudgetScalesBudgetBoundPointsAndMinSamplesConvergedOnes) {
    ResultsFile file = file_with_sizes();
    file.records.push_back(laddered("disk-read", 0, [](std::uint64_t) { return 0.2; }, "time_budget"));
    file.records.push_back(laddered("memcpy-h2d", 0, [](std::uint64_t) { return 0.01; }, "converged"));
    const CostModel model = calibrated_cost_model(file, "x.json", builtin_cost_model());
    const std::uint64_t b = kMiB;
    // --budget's short-sampling step (3 samples, 0.05 s): a quarter of the budget, 3/5 of the samples.
    EXPECT_NEAR(model.point_seconds("disk-read", b, stopping(3, 0.05)) / model.point_seconds("disk-read", b, stopping(5, 0.2)),
                0.25, 1e-9);
    EXPECT_NEAR(model.point_seconds("memcpy-h2d", b, stopping(3, 0.05)) / model.point_seconds("memcpy-h2d", b, stopping(5, 0.2)),
                0.6, 1e-9);
    EXPECT_NEAR(model.point_seconds("disk-read", b, stopping(10, 0.2)), 0.2, 1e-9);  // min samples do not bound it
}

TEST(CostModel, PointsStoppedForNoiseScaleWithTheNoiseLimit) {
    ResultsFile file = file_with_sizes();
    file.meta["options"]["noise_limit_after"] = 10;
    file.records.push_back(laddered("um-demand", 0, [](std::uint64_t) { return 0.04; }, "noise_limited"));
    const CostModel model = calibrated_cost_model(file, "x.json", builtin_cost_model());
    EXPECT_EQ(model.of("um-demand").noise_limit_after, 10u);
    StoppingOptions twenty = stopping(5, 0.2), ten = stopping(5, 0.2);
    twenty.noise_limit_after = 20;
    ten.noise_limit_after = 10;
    EXPECT_NEAR(model.point_seconds("um-demand", kMiB, ten), 0.04, 1e-9);
    EXPECT_NEAR(model.point_seconds("um-demand", kMiB, twenty), 0.08, 1e-9);
    EXPECT_NEAR(model.point_seconds("um-demand", kMiB, stopping(3, 0.05)), 0.04, 1e-9);  // neither samples nor budget
}

// From 256 MiB a converged point costs its transfers: past the band's mean
// fitted size in proportion to its bytes, at most the stretched budget; below
// it, less. (A fit stopped at 256 MiB left the exhaustive run 28% short.)
TEST(CostModel, AConvergedPointPastTheFittedSizesCostsByItsBytesUpToTheStretchedBudget) {
    ResultsFile file = file_with_sizes();
    Record r = laddered("memcpy-h2d", 0, [](std::uint64_t b) { return b >= 256 * kMiB ? 0.04 : 0.01; }, "converged");
    std::erase_if(r.points, [](const Point& p) { return p.bytes > 256 * kMiB; });  // the ladder stopped at 256 MiB
    r.context["elapsed_s"] = 1.0;
    file.records.push_back(r);
    const CostModel model = calibrated_cost_model(file, "x.json", builtin_cost_model());
    EXPECT_DOUBLE_EQ(model.of("memcpy-h2d").bands[kCostBands - 1].mean_bytes, 256.0 * kMiB);
    const StoppingOptions rule = stopping(5, 0.2);  // stretched budget: 5 x 0.2 s
    EXPECT_NEAR(model.point_seconds("memcpy-h2d", 256 * kMiB, rule), 0.04, 1e-12);
    EXPECT_NEAR(model.point_seconds("memcpy-h2d", 1024 * kMiB, rule), 0.16, 1e-12);
    EXPECT_NEAR(model.point_seconds("memcpy-h2d", 64 * 1024 * kMiB, rule), 1.0, 1e-12);  // 10.24 s capped
    EXPECT_NEAR(model.point_seconds("memcpy-h2d", 64 * kMiB, rule), 0.01, 1e-12);         // below 256 MiB: flat
}

// A fixed sweep (--exhaustive) prepares for its largest size at once: its
// setup grows past the size the fitted sweeps were first prepared for; a
// ladder's (prepared for its expected stop) and a confirmation's do not.
TEST(CostModel, AFixedSweepsSetupGrowsWithItsLargestSizePastThePreparedOne) {
    ResultsFile file = file_with_sizes();
    Record r = laddered("memcpy-h2d", 0.3, [](std::uint64_t) { return 0.01; }, "converged");
    r.context["prepared"] = {{"first_bytes", 256 * kMiB}, {"grown_before_bytes", 512 * kMiB}};
    file.records.push_back(r);
    const CostModel model = calibrated_cost_model(file, "x.json", builtin_cost_model());
    const MethodCost& c = model.of("memcpy-h2d");
    EXPECT_DOUBLE_EQ(c.setup_bytes, 256.0 * kMiB);
    const StoppingOptions rule = stopping(5, 0.2);
    const double points = model.point_seconds("memcpy-h2d", kMiB, rule);
    EXPECT_NEAR(model.record_seconds("memcpy-h2d", {{kMiB}, false}, 1, rule), c.setup_s + points, 1e-9);
    EXPECT_NEAR(model.record_seconds("memcpy-h2d", {{kMiB, 1024 * kMiB}, false}, 1, rule) -
                    model.point_seconds("memcpy-h2d", 1024 * kMiB, rule) - points,
                4 * c.setup_s, 1e-9);
    EXPECT_NEAR(model.record_seconds("memcpy-h2d", {{1024 * kMiB}, true}, 1, rule) -
                    model.point_seconds("memcpy-h2d", 1024 * kMiB, rule) * c.band_of(1024 * kMiB).points_per_size,
                c.setup_s, 1e-9);
    EXPECT_NEAR(model.record_seconds("memcpy-h2d", {{1024 * kMiB}, false}, 1, rule, true) -
                    model.point_seconds("memcpy-h2d", 1024 * kMiB, rule),
                c.confirm_setup_s, 1e-9);
}

// A file's context.prepared.first_bytes that is no size (a string, -1) is not
// taken: the sweep's largest point stands for what it was prepared for, and
// the fit goes on (it stopped with an internal error before).
TEST(CostModel, APreparedSizeThatIsNoWholeNumberFallsBackToTheLargestPoint) {
    for (const nlohmann::json& bad : {nlohmann::json("x"), nlohmann::json(-1), nlohmann::json(1.5)}) {
        ResultsFile file = file_with_sizes();
        Record r = laddered("memcpy-h2d", 0.3, [](std::uint64_t) { return 0.01; }, "converged");
        r.context["prepared"] = {{"first_bytes", bad}};
        file.records.push_back(r);
        EXPECT_DOUBLE_EQ(fit_method_costs(file).at("memcpy-h2d").setup_bytes, 1024.0 * kMiB) << bad.dump();
    }
}

TEST(CostModel, ASizeOutsideTheFittedBandsTakesTheNearestFittedBand) {
    ResultsFile file = file_with_sizes();
    Record r = laddered("memcpy-h2d", 0, [](std::uint64_t b) { return b >= 256 * kMiB ? 0.5 : 0.01; }, "converged");
    std::erase_if(r.points, [](const Point& p) { return p.bytes < 64 * 1024; });  // no point below 64 KiB
    r.context["elapsed_s"] = 3.0;
    file.records.push_back(r);
    const MethodCost c = fit_method_costs(file).at("memcpy-h2d");
    EXPECT_EQ(c.bands[0].points, 0u);
    EXPECT_DOUBLE_EQ(c.band_of(1024).converged_s, c.bands[1].converged_s);
    EXPECT_DOUBLE_EQ(c.band_of(std::uint64_t{8} << 30).converged_s, 0.5);
}

TEST(CostModel, CostKeysTellFixedParametersApartNotEndpoints) {
    EXPECT_EQ(cost_key("memcpy-d2h", {{"host_mem", "pageable"}, {"numa", "0"}}), "memcpy-d2h host_mem=pageable");
    EXPECT_EQ(cost_key("memcpy-d2h", {{"numa", "3"}}), "memcpy-d2h host_mem=none");
    EXPECT_EQ(cost_key("memcpy-d2d", {}), "memcpy-d2d peer=none");
    EXPECT_EQ(cost_key("cpu-latency", {}), "cpu-latency");
    EXPECT_EQ(cost_key("no-such-method", {{"host_mem", "pinned"}}), "no-such-method");
    ResultsFile file = file_with_sizes();
    Record pageable = laddered("memcpy-d2h", 0.5, [](std::uint64_t) { return 0.2; }, "time_budget");
    pageable.params = {{"host_mem", "pageable"}, {"numa", "0"}};
    Record pinned = laddered("memcpy-d2h", 0.5, [](std::uint64_t) { return 0.01; }, "converged");
    pinned.params = {{"host_mem", "pinned"}, {"numa", "0"}};
    file.records = {pageable, pinned};
    const CostModel model = calibrated_cost_model(file, "x.json", builtin_cost_model());
    const StoppingOptions rule = stopping(5, 0.2);
    EXPECT_NEAR(model.point_seconds("memcpy-d2h host_mem=pageable", kMiB, rule), 0.2, 1e-9);
    EXPECT_NEAR(model.point_seconds("memcpy-d2h host_mem=pinned", kMiB, rule), 0.01, 1e-9);
    // A value the file lacks: the method's mean over its records.
    EXPECT_NEAR(model.point_seconds("memcpy-d2h host_mem=wc", kMiB, rule), 0.105, 1e-9);
}

TEST(CostModel, AConfirmationPaysAConfirmationsSetupAPromotionNone) {
    ResultsFile file = file_with_sizes();
    file.records.push_back(laddered("memcpy-h2d", 1.0, [](std::uint64_t) { return 0.01; }, "converged"));
    Record promoted = laddered("memcpy-h2d", 3.0, [](std::uint64_t) { return 0.01; }, "converged");
    promoted.measured_as = "promoted";  // its time outside its points includes the confirmation it was first
    file.records.push_back(promoted);
    Record confirmed = laddered("memcpy-h2d", 0.05, [](std::uint64_t) { return 0.01; }, "converged");
    confirmed.measured_as = "confirmed";
    confirmed.context.erase("ladder");
    confirmed.points.resize(3);
    confirmed.context["elapsed_s"] = 0.05 + 3 * 0.01;
    file.records.push_back(confirmed);
    const MethodCost c = fit_method_costs(file).at("memcpy-h2d");
    EXPECT_NEAR(c.setup_s, 1.0, 1e-9);
    EXPECT_NEAR(c.confirm_setup_s, 0.05, 1e-9);
    EXPECT_EQ(c.records, 3u);
    const CostModel model = calibrated_cost_model(file, "x.json", builtin_cost_model());
    EXPECT_NEAR(model.record_seconds("memcpy-h2d", {{1024, 65536, 64 * kMiB}, false}, 1, stopping(5, 0.2), true),
                0.05 + 3 * 0.01, 1e-9);
}

TEST(CostModel, ABandwidthCurveWithoutConstantsBorrowsItsFamilysOthersTheMedian) {
    const CostModel m = builtin_cost_model();
    for (const auto& [name, c] : m.methods) {
        if (c.borrowed_from.empty()) continue;
        EXPECT_EQ(c.records, 0u) << name;
        ASSERT_TRUE(builtin_cost_table().methods.count(c.borrowed_from)) << name;
        EXPECT_EQ(c.setup_s, builtin_cost_table().methods.at(c.borrowed_from).setup_s) << name;
    }
    // A method nobody fitted: per band the median of the fitted methods.
    const MethodCost& none = m.of("no-such-method");
    EXPECT_EQ(&none, &m.fallback);
    EXPECT_GT(m.point_seconds("no-such-method", kMiB, stopping(5, 0.2)), 0);
}

// Pooled runs fit as one: every record of each, the first run's options; runs
// measured with other stopping options are refused.
TEST(CostModel, PooledRunsFitTheirRecordsTogetherAndRefuseOtherOptions) {
    ResultsFile a = file_with_sizes(), b = file_with_sizes();
    a.records.push_back(laddered("memcpy-h2d", 0.1, [](std::uint64_t) { return 0.01; }, "converged"));
    b.records.push_back(laddered("memcpy-h2d", 0.3, [](std::uint64_t) { return 0.03; }, "converged"));
    b.records.push_back(laddered("disk-read", 0, [](std::uint64_t) { return 0.2; }, "time_budget"));
    const ResultsFile pooled = pooled_results({a, b});
    EXPECT_EQ(pooled.records.size(), 3u);
    const std::map<std::string, MethodCost> fit = fit_method_costs(pooled);
    EXPECT_NEAR(fit.at("memcpy-h2d").setup_s, 0.2, 1e-9);  // the mean of the two runs' sweeps
    EXPECT_NEAR(fit.at("memcpy-h2d").bands[0].converged_s, 0.02, 1e-9);
    EXPECT_EQ(fit.count("disk-read"), 1u);
    b.meta["options"]["time_budget_s"] = 0.5;
    EXPECT_THROW(pooled_results({a, b}), std::invalid_argument);
    EXPECT_THROW(pooled_results({}), std::invalid_argument);
}

TEST(Budget, DurationsParseOrAreOneLineErrors) {
    EXPECT_EQ(parse_duration("90s"), 90);
    EXPECT_EQ(parse_duration("10m"), 600);
    EXPECT_EQ(parse_duration("1.5h"), 5400);
    EXPECT_EQ(parse_duration("1h30m"), 5400);
    EXPECT_EQ(parse_duration("45"), 45);
    for (const char* bad : {"", "ten", "10x", "1h30", "m", "10 m", "1e999s", "nan", "inf", "0x10s"})
        EXPECT_THROW(parse_duration(bad), UsageError) << bad;
    for (const char* zero : {"0", "0s", "-5m", "0h0m"}) {
        try {
            parse_duration(zero);
            ADD_FAILURE() << zero;
        } catch (const UsageError& e) {
            EXPECT_NE(std::string(e.what()).find("positive"), std::string::npos) << e.what();
        }
    }
}

TEST(Budget, TheClockAdmitsWhatFitsAndStopsPastTheAllowance) {
    const BudgetClock clock(0.05);
    EXPECT_TRUE(clock.admits(0.01));
    EXPECT_FALSE(clock.admits(0.5));
    EXPECT_FALSE(clock.spent());
    std::this_thread::sleep_for(std::chrono::milliseconds(80));  // well past 1.07 x 50 ms
    EXPECT_TRUE(clock.spent());
    EXPECT_FALSE(clock.admits(0));
}

// A concurrency record costs in proportion to its lanes: all-to-host fitted
// on two GPUs (3 endpoints) and planned on four (5) costs twice as much;
// all-to-one's single lane on two GPUs (2 endpoints) against three on four.
TEST(CostModel, AConcurrencyRecordCostsInProportionToItsLanes) {
    CostModel model;
    MethodCost c;
    c.setup_s = 1.0;
    c.bands[0] = {0.01, 0, 0, 1, 10};
    c.endpoints = 3;
    model.methods["all-to-host"] = c;
    const ExpectedSizes sizes{{1024, 4096}, false};
    const double fitted = model.record_seconds("all-to-host", sizes, 1, stopping(5, 0.2), false, 3);
    EXPECT_DOUBLE_EQ(model.record_seconds("all-to-host", sizes, 1, stopping(5, 0.2), false, 5), 2 * fitted);
    EXPECT_DOUBLE_EQ(model.record_seconds("all-to-host", sizes, 1, stopping(5, 0.2), false, 0), fitted);  // a plain pair

    Record host;
    host.src = "numa0";
    host.dst = "gpu*";
    host.lanes = {{"numa0->gpu0", "all-to-host", "numa0", "gpu0"}, {"numa0->gpu1", "all-to-host", "numa0", "gpu1"}};
    EXPECT_EQ(lane_endpoints(host), 3u);
    Record one;
    one.src = "gpu*-gpu1";
    one.dst = "gpu1";
    one.lanes = {{"gpu0->gpu1", "all-to-one", "gpu0", "gpu1"}};
    EXPECT_EQ(lane_endpoints(one), 2u);
    Record pair;
    pair.src = "gpu0";
    pair.dst = "gpu1";
    pair.lanes = {{"gpu0->gpu1", "memcpy-peer", "gpu0", "gpu1"}};
    EXPECT_EQ(lane_endpoints(pair), 0u);
    // The built-in table was fitted on two GPUs: all-to-host's records had three endpoints.
    EXPECT_DOUBLE_EQ(builtin_cost_table().methods.at("all-to-host").endpoints, 3);
    EXPECT_DOUBLE_EQ(builtin_cost_table().methods.at("all-to-one").endpoints, 2);
}
