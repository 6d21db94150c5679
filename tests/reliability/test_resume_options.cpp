// Options stored in a results file get the command line's limits on --resume
// (issue 16: warmup_runs -1 became 2^64-1 warm-ups, a run without end).
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "run/run_options.hpp"

using namespace hwcomm;

namespace {

nlohmann::json stored() {
    RunOptions o = default_run_options();
    o.sizes = {1, 2, 4};
    return run_options_to_json(o);
}

std::string error_with(const std::string& key, const nlohmann::json& value) {
    nlohmann::json j = stored();
    j[key] = value;
    try {
        run_options_from_json(j);
    } catch (const UsageError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(ResumeOptions, OwnOptionsRoundTrip) {
    const RunOptions back = run_options_from_json(stored());
    EXPECT_EQ(back.sizes, (std::vector<std::uint64_t>{1, 2, 4}));
    EXPECT_EQ(back.warmup_runs, 1u);
}

TEST(ResumeOptions, IssueCasesAreRefused) {
    EXPECT_EQ(error_with("warmup_runs", -1), "meta.options is malformed: warmup_runs must be a non-negative integer, not -1");
    EXPECT_EQ(error_with("timing", "bogus"), "meta.options is malformed: timing must be wall or event, not 'bogus'");
    EXPECT_EQ(error_with("sizes", nlohmann::json::array({0})),
              "meta.options is malformed: a size in sizes 0 is outside [1, 1073741824]");
    EXPECT_EQ(error_with("min_size", -1), "meta.options is malformed: min_size must be a non-negative integer, not -1");
}

TEST(ResumeOptions, LimitsOfEveryField) {
    EXPECT_NE(error_with("warmup_runs", 1e6), "");                  // a double
    EXPECT_NE(error_with("warmup_runs", 10001), "");
    EXPECT_NE(error_with("min_size", 0), "");
    EXPECT_NE(error_with("max_size", 0), "");                       // below min_size
    EXPECT_NE(error_with("sizes", nlohmann::json::array()), "");
    EXPECT_NE(error_with("sizes", nlohmann::json::array({4, 2})), "");
    EXPECT_NE(error_with("sizes", nlohmann::json::array({"1"})), "");
    EXPECT_NE(error_with("time_budget_s", 0), "");
    EXPECT_NE(error_with("time_budget_s", -1), "");
    EXPECT_NE(error_with("time_budget_s", 1e300), "");
    EXPECT_NE(error_with("max_noise", 1.5), "");
    EXPECT_NE(error_with("min_samples", 0), "");
    EXPECT_NE(error_with("max_samples", 1), "");                    // below min_samples (5)
    EXPECT_NE(error_with("points_per_octave", 2), "");
    EXPECT_NE(error_with("octave_step", 0), "");
    EXPECT_NE(error_with("max_workers", 4294967296.0), "");
    EXPECT_NE(error_with("quick", "yes"), "");
    EXPECT_NE(error_with("filters", 3), "");
    nlohmann::json not_object = nlohmann::json::array();
    EXPECT_THROW(run_options_from_json(not_object), UsageError);
    EXPECT_THROW(run_options_from_json(nullptr), UsageError);
}

TEST(ResumeOptions, CommandLineValuesMeetTheSameLimits) {
    RunOptions o = default_run_options();
    o.sizes = {1};
    EXPECT_NO_THROW(validate_run_options(o));
    o.stopping.time_budget_s = std::nan("");
    EXPECT_THROW(validate_run_options(o), UsageError);
}
