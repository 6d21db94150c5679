// Run state in meta.run and the exit code of `hwcomm run` that follows.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "io/run_state.hpp"

using namespace hwcomm;

namespace {

ResultsFile with_records(std::size_t ok, std::size_t errors) {
    ResultsFile f;
    for (std::size_t i = 0; i < ok + errors; ++i) {
        Record r;
        r.key = std::to_string(i);
        if (i >= ok) r.status = "error";
        f.records.push_back(r);
    }
    return f;
}

}  // namespace

TEST(RunState, CountsTimesAndFinished) {
    nlohmann::json meta = nlohmann::json::object();
    begin_run_state(meta, 12, LoadAverage{0.5, 0.4, 0.3, true}, 16, "2026-11-22T10:00:00Z");
    set_completed_records(meta, 3);
    const auto& run = meta.at("run");
    EXPECT_EQ(run.at("planned_records"), 12);
    EXPECT_EQ(run.at("completed_records"), 3);
    EXPECT_EQ(run.at("started_utc"), "2026-11-22T10:00:00Z");
    EXPECT_TRUE(run.at("ended_utc").is_null());
    EXPECT_FALSE(run.at("finished").get<bool>());
    EXPECT_EQ(run.at("load_average"), nlohmann::json({0.5, 0.4, 0.3}));
    EXPECT_EQ(run.at("logical_cpus"), 16);
    end_run_state(meta, false, "2026-11-22T10:05:00Z");
    EXPECT_FALSE(run_finished(meta));
    // A resume keeps the first start and the count so far.
    begin_run_state(meta, 12, LoadAverage{}, 16, "2026-11-22T11:00:00Z");
    EXPECT_EQ(meta.at("run").at("started_utc"), "2026-11-22T10:00:00Z");
    EXPECT_EQ(meta.at("run").at("completed_records"), 3);
    EXPECT_TRUE(meta.at("run").at("load_average").is_null());
    end_run_state(meta, true, "2026-11-22T11:05:00Z");
    EXPECT_TRUE(run_finished(meta));
    EXPECT_EQ(meta.at("run").at("ended_utc"), "2026-11-22T11:05:00Z");
}

TEST(RunState, ExitCodes) {
    ResultsFile f = with_records(3, 0);
    EXPECT_EQ(run_exit_code(f), kExitInterrupted);  // no run state: not finished
    end_run_state(f.meta, true, "t");
    EXPECT_EQ(run_exit_code(f), 0);
    f = with_records(3, 1);
    end_run_state(f.meta, true, "t");
    EXPECT_EQ(run_exit_code(f), kExitRecordErrors);
    end_run_state(f.meta, false, "t");
    EXPECT_EQ(run_exit_code(f), kExitInterrupted);
    EXPECT_EQ(kExitRecordErrors, 3);
    EXPECT_EQ(kExitInterrupted, 4);
}

TEST(RunState, WarnsWhenLoadIsAboveHalfTheCores) {
    EXPECT_EQ(load_warning(LoadAverage{1.0, 0, 0, true}, 2, {"cc1plus"}), "");
    EXPECT_EQ(load_warning(LoadAverage{3.5, 0, 0, true}, 2, {"cc1plus", "ninja"}),
              "load average 3.50 is above half of the 2 logical CPUs: 2 other processes run now (cc1plus, ninja) and "
              "may disturb the measurements");
    EXPECT_EQ(load_warning(LoadAverage{}, 2, {}), "");
    // The build of README's main job ended seconds before the run: said so, not blamed on the run.
    EXPECT_NE(load_warning(LoadAverage{3.5, 0, 0, true}, 2, {}).find("no other process runs now: the load is from work that has ended"),
              std::string::npos);
}
