// hwcomm run --filter method=disk-read end to end on this machine: a scratch
// directory in the build tree, the disk under it found by the run itself.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <thread>

#include "cli_helpers.hpp"
#include "discover/mount_table.hpp"

using namespace hwcomm::test;

namespace {

// The build tree, not /tmp: /tmp may be a tmpfs, which no disk holds.
struct DiskScratch {
    fs::path dir = fs::current_path() / ("cli-disk-scratch-" + std::to_string(::getpid()));
    DiskScratch() {
        fs::remove_all(dir);
        fs::create_directories(dir);
    }
    ~DiskScratch() { fs::remove_all(dir); }
    bool empty() const { return fs::directory_iterator(dir) == fs::directory_iterator{}; }
};

// Whether process `pid` runs hwcomm (the shell has exec'd it) and has a
// handler for SIGINT (SigCgt of /proc/PID/status).
bool catches_sigint(pid_t pid) {
    std::string comm;
    std::getline(std::ifstream("/proc/" + std::to_string(pid) + "/comm"), comm);
    if (comm != "hwcomm") return false;
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("SigCgt:", 0) == 0) {
            const unsigned long long mask = std::stoull(line.substr(7), nullptr, 16);
            return (mask >> (SIGINT - 1)) & 1u;
        }
    return false;
}

// A directory nobody can create a file in: a read-only mount if this machine
// has one, else a 0555 directory (not root), else /proc/self.
std::string unwritable_dir(const DiskScratch& s) {
    for (const auto& m : hwcomm::read_mount_table())
        if (m.read_only && fs::is_directory(m.mount_point)) return m.mount_point;
    if (::geteuid() != 0) {
        fs::create_directories(s.dir / "ro");
        fs::permissions(s.dir / "ro", fs::perms::owner_read | fs::perms::owner_exec);
        return (s.dir / "ro").string();
    }
    return "/proc/self";
}

const std::string kSmall = " --min-size 4K --max-size 64K --min-samples 3 --time-budget 0.05 --cache-drop file";

}  // namespace

TEST(CliDisk, ReadsTheScratchDisksFileIntoEveryNodeWithTheCacheDroppedBeforeEverySample) {
    Scratch s("disk");
    const DiskScratch d;
    // --exhaustive: every size of the sweep (no ladder refining where the curve bends).
    const Result r = run_hwcomm(s, "run --exhaustive --filter method=disk-read --scratch '" + d.dir.string() + "'" +
                                       kSmall + " -o out.json");
    if (r.code == 2 && r.err.find("nothing to measure") != std::string::npos)
        GTEST_SKIP() << "hwloc shows no disk vertex for the disk under " << d.dir << ": " << r.err;
    ASSERT_EQ(r.code, 0) << r.err;
    const auto doc = read_json(s / "out.json");
    std::set<std::string> disk_vertices;
    for (const auto& v : doc.at("topology").at("vertices"))
        if (v.at("id").get<std::string>().rfind("disk:", 0) == 0) disk_vertices.insert(v.at("id").get<std::string>());
    const auto& records = doc.at("records");
    ASSERT_EQ(records.size() % 3, 0u);  // io = buffered, direct, fread per NUMA node
    ASSERT_GE(records.size(), 3u);
    for (const auto& rec : records) {
        EXPECT_EQ(rec.at("status").get<std::string>(), "ok") << rec.value("error", "");
        EXPECT_TRUE(disk_vertices.count(rec.at("src").get<std::string>())) << rec.at("src");
        const auto& drop = rec.at("context").at("cache_drop");
        EXPECT_EQ(drop.at("policy").get<std::string>(), "file");
        EXPECT_EQ(drop.at("ways").at("posix_fadvise").get<int>(), drop.at("samples").get<int>()) << drop.dump();
        EXPECT_EQ(drop.at("samples_with_cached_pages").get<int>(), 0);
        const auto& pts = rec.at("points");
        ASSERT_EQ(pts.size(), 5u);  // 4 KiB .. 64 KiB
        for (const auto& p : pts) {
            EXPECT_GT(p.at("bandwidth_gbps").get<double>(), 0);
            EXPECT_TRUE(p.at("verified").get<bool>());
            EXPECT_EQ(p.at("metrics").at("cached_bytes_at_start").at("value").get<double>(), 0);
        }
    }
    EXPECT_TRUE(d.empty()) << "a test file stayed in " << d.dir;
}

TEST(CliDisk, TheIoModesOfOneDiskAndNodeShareOneLadder) {
    Scratch s("disk-ladder");
    const DiskScratch d;
    const Result r = run_hwcomm(s, "run --filter method=disk-read --filter dst=numa0 --scratch '" + d.dir.string() +
                                       "'" + kSmall + " -o out.json");
    if (r.code == 2 && r.err.find("nothing to measure") != std::string::npos)
        GTEST_SKIP() << "hwloc shows no disk vertex for the disk under " << d.dir << ": " << r.err;
    ASSERT_EQ(r.code, 0) << r.err;
    const auto doc = read_json(s / "out.json");
    const auto& records = doc.at("records");
    ASSERT_GE(records.size(), 3u);
    // The first io mode of a disk climbs the ladder; the others measure the sizes it chose.
    std::map<std::string, std::vector<std::uint64_t>> chosen;  // ladder record key -> its sizes
    std::size_t shared = 0;
    for (const auto& rec : records) {
        std::vector<std::uint64_t> sizes;
        for (const auto& p : rec.at("points")) sizes.push_back(p.at("bytes").get<std::uint64_t>());
        const auto& ladder = rec.at("context").at("ladder");
        if (ladder.contains("shared_with")) {
            ++shared;
            ASSERT_TRUE(chosen.count(ladder.at("shared_with").get<std::string>())) << ladder.dump();
            EXPECT_EQ(sizes, chosen.at(ladder.at("shared_with").get<std::string>())) << rec.at("key");
        } else {
            chosen[rec.at("key").get<std::string>()] = sizes;
        }
    }
    EXPECT_EQ(shared, 2 * chosen.size());  // buffered climbs, direct and fread follow
}

TEST(CliDisk, AMissingOrUnwritableScratchIsOneLineAndExitTwo) {
    Scratch s("disk-bad");
    const DiskScratch d;
    for (const std::string& dir : {(d.dir / "missing").string(), unwritable_dir(d)}) {
        const Result r = run_hwcomm(s, "run --filter method=disk-read --scratch '" + dir + "'" + kSmall + " -o out.json");
        EXPECT_EQ(r.code, 2) << dir << ": " << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_FALSE(fs::exists(s / "out.json")) << dir;
    }
    std::error_code ec;  // no "ro" when the machine had a read-only mount or runs as root
    fs::permissions(d.dir / "ro", fs::perms::owner_all, ec);  // lets the fixture remove it
}

TEST(CliDisk, AnInterruptedRunLeavesNoTestFile) {
    Scratch s("disk-int");
    const DiskScratch d;
    const std::string cmd = "exec '" HWCOMM_BINARY "' run --filter method=disk-read --scratch '" + d.dir.string() +
                            "' --max-size 1M --min-samples 1000 --cache-drop file -o '" + (s / "out.json").string() +
                            "' >/dev/null 2>'" + (s / "err").string() + "'";
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        ::execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    // Once the run catches SIGINT it is about to measure (cmd_run installs its
    // handlers after discovery and the plan); half a second later it is inside
    // the first record. (A fixed 1.5 s from the start sent the signal before
    // the handler was installed under AddressSanitizer on a loaded 2-core
    // machine: the run died of the signal.)
    int status = 0;
    bool exited = false;
    for (int i = 0; i < 3000 && !catches_sigint(pid) && !exited; ++i) {
        exited = ::waitpid(pid, &status, WNOHANG) == pid;
        if (!exited) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (!exited) {
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        ::kill(pid, SIGINT);
        ::waitpid(pid, &status, 0);
    }
    const std::string err = slurp(s / "err");
    if (WIFEXITED(status) && WEXITSTATUS(status) == 2 && err.find("nothing to measure") != std::string::npos)
        GTEST_SKIP() << "no disk vertex for " << d.dir;
    ASSERT_TRUE(WIFEXITED(status)) << err;
    EXPECT_EQ(WEXITSTATUS(status), 4) << err;
    EXPECT_TRUE(d.empty()) << "a test file stayed in " << d.dir;
    EXPECT_EQ(read_json(s / "out.json").at("records").size(), 0u);
}
