// Kill a run after its first record is on disk, resume it, and compare the
// record keys with an uninterrupted run.
#include <gtest/gtest.h>

#include <signal.h>

#include <chrono>
#include <set>
#include <thread>

#include "cli_helpers.hpp"

using namespace hwcomm::test;

namespace {

const char* kArgs[] = {"run", "--min-size", "4K", "--max-size", "1M", "--time-budget", "0.01", nullptr};

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
    EXPECT_EQ(full.size(), 4u);  // one NUMA node: cpu-read, cpu-write, memcpy single and multi
    EXPECT_TRUE(read_json(killed).at("meta").contains("resumed"));
}
