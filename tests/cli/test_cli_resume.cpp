// Kill a run after its first record is on disk, resume it, and compare the
// record keys with an uninterrupted run.
#include <gtest/gtest.h>

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <set>
#include <thread>

#include "cli_helpers.hpp"

using namespace hwcomm::test;

namespace {

// src=numa*: the NUMA-pair records only (disk-read's disk:* records write a test file and take longer).
const char* kArgs[] = {"run", "--min-size", "4K", "--max-size", "1M", "--time-budget", "0.01", "--filter", "src=numa*", nullptr};

std::set<std::string> keys_of(const fs::path& p) {
    std::set<std::string> keys;
    const auto doc = read_json(p);
    for (const auto& r : doc.at("records")) keys.insert(r.at("key").get<std::string>());
    return keys;
}

std::size_t records_in(const fs::path& p) {
    try {
        return read_json(p).at("records").size();
    } catch (const std::exception&) {
        return 0;  // not there yet
    }
}

}  // namespace

TEST(CliResume, KilledRunResumesToTheSameRecords) {
    Scratch s("resume");
    const fs::path killed = s / "killed.json";
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        std::vector<const char*> argv{HWCOMM_BINARY};
        for (const char** a = kArgs; *a; ++a) argv.push_back(*a);
        argv.push_back("-o");
        argv.push_back(killed.c_str());
        argv.push_back(nullptr);
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)) _exit(126);
        execv(HWCOMM_BINARY, const_cast<char* const*>(argv.data()));
        _exit(127);
    }
    // Kill it as soon as one record is on disk (or let it end, if it is faster than us).
    int status = 0;
    bool exited = false;
    for (int i = 0; i < 6000 && !exited; ++i) {
        if (records_in(killed) >= 1) break;
        exited = waitpid(pid, &status, WNOHANG) == pid;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (!exited) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
    }
    // Whatever moment the kill hit, the file is a valid results file.
    const std::size_t before = records_in(killed);
    ASSERT_GE(before, 1u);
    const Result resumed = run_hwcomm(s, "run --resume killed.json");
    ASSERT_EQ(resumed.code, 0) << resumed.err;

    std::string full_args;
    for (const char** a = kArgs; *a; ++a) full_args += std::string(*a) + " ";
    ASSERT_EQ(run_hwcomm(s, full_args + "-o full.json").code, 0);
    const auto full = keys_of(s / "full.json");
    EXPECT_EQ(keys_of(killed), full);
    EXPECT_EQ(records_in(killed), full.size());  // no duplicates
    // One NUMA node: cpu-read, cpu-write x2 (stores), memcpy x2 (threads), cpu-copy x2, cpu-triad x2,
    // cpu-latency, cpu-loaded-latency, cpu-bandwidth-mix.
    EXPECT_EQ(full.size(), 12u);
    EXPECT_TRUE(read_json(killed).at("meta").contains("resumed"));
}

namespace {

const std::string kQuick = "run --quick --max-size 16K --filter 'src=numa*' ";

void write_json(const fs::path& p, const nlohmann::json& j) { std::ofstream(p) << j.dump(1); }

}  // namespace

// Exit 4: stopped before the end (the test hook stops as an interrupt would);
// the partial file is valid, says so, and a resume completes it (exit 0)
// keeping keys this build does not know at every level.
TEST(CliRunExit, InterruptedExits4AndResumeKeepsUnknownKeys) {
    Scratch s("exit4");
    const Result stopped = run_hwcomm(s, kQuick + "--stop-after-records 1 -o part.json");
    ASSERT_EQ(stopped.code, 4) << stopped.err;
    EXPECT_NE(stopped.out.find("--resume part.json"), std::string::npos) << stopped.out;
    EXPECT_NE(stopped.err.find("[1/12] "), std::string::npos) << stopped.err;
    auto doc = read_json(s / "part.json");
    ASSERT_EQ(doc.at("records").size(), 1u);
    const auto& run = doc.at("meta").at("run");
    EXPECT_EQ(run.at("planned_records"), 12);
    EXPECT_EQ(run.at("completed_records"), 1);
    EXPECT_FALSE(run.at("finished").get<bool>());
    EXPECT_TRUE(run.at("ended_utc").is_string());
    EXPECT_TRUE(doc.at("meta").at("fingerprint").contains("numa_nodes"));
    EXPECT_EQ(doc.at("records")[0].at("provenance").at("kind"), "measured");
    EXPECT_EQ(doc.at("records")[0].at("provenance").at("revision"), doc.at("meta").at("git_revision"));

    doc["from_a_newer_build"] = "kept";
    doc["meta"]["site"] = "kept";
    doc["records"][0]["energy_j"] = 1.5;
    doc["records"][0]["points"][0]["power_w"] = 300;
    write_json(s / "part.json", doc);
    const Result resumed = run_hwcomm(s, "run --resume part.json");
    ASSERT_EQ(resumed.code, 0) << resumed.err;
    EXPECT_NE(resumed.err.find("[12/12] "), std::string::npos) << resumed.err;
    EXPECT_EQ(resumed.err.find("[1/12] "), std::string::npos) << resumed.err;  // not measured again
    const auto done = read_json(s / "part.json");
    EXPECT_EQ(done.at("records").size(), 12u);
    EXPECT_TRUE(done.at("meta").at("run").at("finished").get<bool>());
    EXPECT_EQ(done.at("meta").at("run").at("completed_records"), 12);
    EXPECT_EQ(done.at("from_a_newer_build"), "kept");
    EXPECT_EQ(done.at("meta").at("site"), "kept");
    EXPECT_EQ(done.at("records")[0].at("energy_j"), 1.5);
    EXPECT_EQ(done.at("records")[0].at("points")[0].at("power_w"), 300);
}

// Exit 3: the run finished but a record is an error (here one kept from the
// interrupted part, which a resume does not measure again).
TEST(CliRunExit, FinishedWithAnErrorRecordExits3) {
    Scratch s("exit3");
    ASSERT_EQ(run_hwcomm(s, kQuick + "--stop-after-records 1 -o r.json").code, 4);
    auto doc = read_json(s / "r.json");
    doc["records"][0]["status"] = "error";
    doc["records"][0]["error"] = "prepare: cannot allocate";
    write_json(s / "r.json", doc);
    const Result r = run_hwcomm(s, "run --resume r.json");
    EXPECT_EQ(r.code, 3) << r.err;
    EXPECT_NE(r.out.find("1 with errors"), std::string::npos) << r.out;
    EXPECT_TRUE(read_json(s / "r.json").at("meta").at("run").at("finished").get<bool>());
}

// Exit 2: a file made on another machine (here: one with a GPU) is refused,
// naming the difference, and left as it was.
TEST(CliRunExit, ResumeOfAnotherMachinesFileExits2Untouched) {
    Scratch s("exit2");
    ASSERT_EQ(run_hwcomm(s, kQuick + "--stop-after-records 1 -o r.json").code, 4);
    auto doc = read_json(s / "r.json");
    doc["meta"]["fingerprint"]["gpus"].push_back({{"id", "gpu7"}, {"uuid", "GPU-feed"}, {"pci", "0000:00:06.0"}});
    write_json(s / "r.json", doc);
    const std::string before = slurp(s / "r.json");
    const Result r = run_hwcomm(s, "run --resume r.json");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("resume refused: this machine has "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("GPU"), std::string::npos) << r.err;  // names the GPUs that differ
    EXPECT_EQ(slurp(s / "r.json"), before);
}

// Issue 25: a resumed file is validated as strictly as the command line; each
// tampered file is refused (exit 2, one line naming what is wrong) untouched.
TEST(CliRunExit, TamperedResumedFilesAreRefusedUntouched) {
    Scratch s("tampered");
    ASSERT_EQ(run_hwcomm(s, kQuick + "--stop-after-records 1 -o good.json").code, 4);
    const auto good = read_json(s / "good.json");
    struct Case {
        const char* what;
        std::function<void(nlohmann::json&)> tamper;
        const char* says;
    };
    const std::vector<Case> cases{
        {"a record of a NUMA node this machine lacks",
         [](nlohmann::json& d) {
             auto r = d["records"][0];
             r["src"] = r["dst"] = "numa9";
             r["key"] = r["method"].get<std::string>() + "|numa9|numa9|";
             d["records"].push_back(r);
         },
         "is not one this run plans"},
        {"a record twice", [](nlohmann::json& d) { d["records"].push_back(d["records"][0]); }, "duplicate record key"},
        {"a negative size", [](nlohmann::json& d) { d["records"][0]["points"][0]["bytes"] = -1; },
         "bytes must be a non-negative integer"},
        {"a method option value the command line refuses",
         [](nlohmann::json& d) { d["meta"]["options"]["method_options"]["cache-drop"] = "bogus"; }, "--cache-drop"},
        {"an option no method declares",
         [](nlohmann::json& d) { d["meta"]["options"]["method_options"]["warp-speed"] = "9"; },
         "--warp-speed is not an option"},
        {"a load on a GPU this machine lacks",
         [](nlohmann::json& d) { d["meta"]["options"]["under_load"] = {"memcpy-h2d numa0->gpu7"}; }, "gpu7"},
        {"sizes the command line refuses (max below min)",
         [](nlohmann::json& d) { d["meta"]["options"]["max_size"] = 1; }, "max_size"},
        {"a timing mode the command line refuses", [](nlohmann::json& d) { d["meta"]["options"]["timing"] = "sundial"; },
         "timing must be wall or event"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.what);
        auto doc = good;
        c.tamper(doc);
        write_json(s / "r.json", doc);
        const std::string before = slurp(s / "r.json");
        const Result r = run_hwcomm(s, "run --resume r.json");
        EXPECT_EQ(r.code, 2) << r.err;
        EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_EQ(slurp(s / "r.json"), before);
    }
    // An option given beside --resume is named.
    const Result r = run_hwcomm(s, "run --resume good.json --time-budget 1");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("drop --time-budget"), std::string::npos) << r.err;
}
