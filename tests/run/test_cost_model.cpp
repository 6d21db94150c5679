// The cost model: the built-in constants are what the committed run gives,
// calibration recovers planted costs, budgets parse and fit step by step.
#include <gtest/gtest.h>

#include <cmath>
#include <thread>

#include "core/error.hpp"
#include "io/results_file.hpp"
#include "run/budget.hpp"
#include "run/cost_model.hpp"

using namespace hwcomm;

namespace {

const char* kCommittedRun = HWCOMM_FIXTURES "/../../docs/examples/h200x2/results-default-all-methods.json.gz";

bool near(double a, double b) { return std::fabs(a - b) <= 0.001 * std::max(std::fabs(a), std::fabs(b)) + 1e-9; }

// A record measured with per-point times: setup + per size point_s + gib_s per GiB.
Record planted(const std::string& method, double setup, double point_s, double gib_s) {
    Record r;
    r.method = method;
    r.src = r.dst = "numa0";
    r.key = record_key(r.method, r.src, r.dst, {});
    double total = setup;
    for (std::uint64_t b = 1024; b <= (std::uint64_t{1} << 28); b *= 2) {
        Point p;
        p.bytes = b;
        p.bandwidth_gbps = 10;
        p.elapsed_s = point_s + gib_s * static_cast<double>(b) / 1073741824.0;
        total += p.elapsed_s;
        r.points.push_back(p);
    }
    r.context["elapsed_s"] = total;
    r.context["ladder"] = {{"stop", "plateau"}};
    return r;
}

}  // namespace

TEST(CostModel, BuiltInConstantsAreTheFitOfTheCommittedDefaultRun) {
    const ResultsFile file = load_results_file(kCommittedRun);
    const auto fitted = fit_method_costs(file);
    const CostModel builtin = builtin_cost_model();
    std::size_t own = 0;
    for (const auto& [method, cost] : builtin.methods) own += cost.borrowed_from.empty();
    ASSERT_EQ(fitted.size(), own);
    for (const auto& [method, cost] : fitted) {
        ASSERT_TRUE(builtin.methods.count(method)) << method;
        const MethodCost& b = builtin.methods.at(method);
        EXPECT_TRUE(near(b.point_s, cost.point_s)) << method << " " << b.point_s << " vs " << cost.point_s;
        EXPECT_TRUE(near(b.gib_s, cost.gib_s)) << method << " " << b.gib_s << " vs " << cost.gib_s;
        EXPECT_EQ(b.ladder_stop_bytes, cost.ladder_stop_bytes) << method;
        EXPECT_EQ(b.records, cost.records) << method;
    }
    // The model gives back the committed run's total for its own sizes: every record sums to its elapsed_s.
    double measured = 0, modelled = 0;
    for (const Record& r : file.records) {
        if (r.status != "ok" || !r.context.contains("elapsed_s")) continue;
        measured += r.context.at("elapsed_s").get<double>();
        std::vector<std::uint64_t> sizes;
        for (const Point& p : r.points) sizes.push_back(p.bytes);
        modelled += builtin.record_seconds(r.method, sizes, 1, 5);
    }
    EXPECT_LT(std::fabs(modelled / measured - 1), 0.2) << modelled << " vs " << measured;
}

TEST(CostModel, PointTimesGiveSetupPerSizeAndPerGiBCosts) {
    ResultsFile file;
    file.meta["options"] = {{"min_samples", 5}};
    file.records.push_back(planted("cpu-read", 0.5, 0.02, 2.0));
    const MethodCost c = fit_method_costs(file).at("cpu-read");
    EXPECT_NEAR(c.setup_s, 0.5, 1e-9);
    EXPECT_NEAR(c.point_s, 0.02 + 2.0 * 8192 / 1073741824.0, 1e-6);  // median of the sizes <= 64 KiB
    EXPECT_NEAR(c.gib_s, 2.0, 0.01);
    EXPECT_EQ(c.ladder_stop_bytes, std::uint64_t{1} << 28);  // measured with the ladder: where it stopped
    // Calibrated, the model predicts that record's own time.
    const CostModel m = calibrated_cost_model(file, "x.json", builtin_cost_model());
    std::vector<std::uint64_t> sizes;
    for (const Point& p : file.records.front().points) sizes.push_back(p.bytes);
    EXPECT_NEAR(m.record_seconds("cpu-read", sizes, 1, 5), file.records.front().context.at("elapsed_s").get<double>(),
                0.02 * 0.05 * 19);
    EXPECT_NE(m.source.find("x.json"), std::string::npos);
    // Methods the file lacks keep the built-in constants.
    EXPECT_EQ(m.of("memcpy-h2d").gib_s, builtin_cost_model().of("memcpy-h2d").gib_s);
}

TEST(CostModel, AMethodWithoutConstantsTakesItsFamilysFirstFittedOnes) {
    const CostModel m = builtin_cost_model();
    EXPECT_TRUE(m.of("cpu-read").borrowed_from.empty());
    for (const char* cpu : {"cpu-copy", "cpu-triad"}) {
        EXPECT_EQ(m.of(cpu).borrowed_from, "cpu-read") << cpu;
        EXPECT_EQ(m.of(cpu).gib_s, m.of("cpu-read").gib_s) << cpu;
        EXPECT_EQ(m.of(cpu).records, 0u) << cpu;
    }
    // A latency chase or an axis sweep is no bandwidth curve: the fallback's constants, not cpu-read's.
    for (const char* other : {"cpu-latency", "cpu-loaded-latency", "cpu-bandwidth-mix"})
        EXPECT_FALSE(m.methods.count(other)) << other;
}

TEST(CostModel, FewerSamplesCostProportionallyLess) {
    const CostModel m = builtin_cost_model();
    EXPECT_NEAR(m.point_seconds("memcpy-h2d", 1 << 20, 3) / m.point_seconds("memcpy-h2d", 1 << 20, 5), 0.6, 1e-12);
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
