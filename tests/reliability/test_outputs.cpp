// Outputs: whatever sits at the path is never replaced by something else
// (issue 16: `topo -o /dev/null` as root replaced the device node).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "discover/test_support.hpp"
#include "platform/atomic_file.hpp"

using namespace hwcomm;
namespace fs = std::filesystem;

namespace {

std::string slurp(const std::string& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::size_t entries(const std::string& dir) {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), {}));
}

std::string error_writing(const std::string& path) {
    try {
        write_file_atomically(path, "x");
    } catch (const UsageError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(Outputs, CharacterDeviceIsWrittenInPlace) {
    struct stat before {}, after {};
    ASSERT_EQ(::stat("/dev/null", &before), 0);
    ASSERT_TRUE(S_ISCHR(before.st_mode)) << "this machine's /dev/null is no device: an older tool replaced it";
    write_file_atomically("/dev/null", "results\n");
    ASSERT_EQ(::stat("/dev/null", &after), 0);
    EXPECT_TRUE(S_ISCHR(after.st_mode));
    EXPECT_EQ(before.st_ino, after.st_ino);
    EXPECT_EQ(inspect_output("/dev/stdout").kind == OutputKind::InPlace ||
                  inspect_output("/dev/stdout").kind == OutputKind::RegularFile,
              true);
}

TEST(Outputs, PipeWithAReaderIsWrittenInPlaceWithoutOneRefused) {
    test::TempDir dir;
    const std::string fifo = dir.path() + "/out.fifo";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_EQ(error_writing(fifo), "cannot write " + fifo + ": no process reads this pipe");
    const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
    ASSERT_GE(reader, 0);
    write_file_atomically(fifo, "through the pipe");
    char buf[64] = {};
    EXPECT_EQ(::read(reader, buf, sizeof buf), 16);
    EXPECT_STREQ(buf, "through the pipe");
    ::close(reader);
    struct stat st {};
    ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
    EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

TEST(Outputs, DirectoriesSocketsAndEmptyNamesAreRefused) {
    test::TempDir dir;
    EXPECT_EQ(error_writing(dir.path()), "cannot write " + dir.path() + ": is a directory");
    EXPECT_EQ(error_writing(""), "cannot write an output with an empty name");
    EXPECT_NE(error_writing(dir.path() + "/" + std::string(5000, 'a')), "");
    EXPECT_NE(error_writing(dir.path() + "/missing/out.json"), "");
}

TEST(Outputs, SymlinkOutOfTheDirectoryIsNeverFollowedByTheRename) {
    test::TempDir outside, dir;
    const std::string target = outside.file("precious.json", "keep me");
    const std::string link = dir.path() + "/out.json";
    fs::create_symlink(target, link);
    EXPECT_EQ(error_writing(link),
              "cannot write " + link + ": is a symbolic link out of its directory; name its target instead");
    EXPECT_EQ(slurp(target), "keep me");
    EXPECT_TRUE(fs::is_symlink(link));
}

TEST(Outputs, SymlinkWithinTheDirectoryReplacesItsTarget) {
    test::TempDir dir;
    const std::string target = dir.file("run-1.json", "old");
    const std::string link = dir.path() + "/latest.json";
    fs::create_symlink("run-1.json", link);
    write_file_atomically(link, "new");
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(slurp(target), "new");
    EXPECT_EQ(entries(dir.path()), 2u);
}

TEST(Outputs, NewFilesHonourTheUmask) {
    test::TempDir dir;
    const mode_t old = ::umask(027);
    write_file_atomically(dir.path() + "/a.json", "x");
    ::umask(old);
    struct stat st {};
    ASSERT_EQ(::stat((dir.path() + "/a.json").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0640u);
}

TEST(Outputs, StaleTemporariesOfDeadProcessesAreRemoved) {
    test::TempDir dir;
    const pid_t dead = ::fork();
    if (dead == 0) ::_exit(0);
    ::waitpid(dead, nullptr, 0);
    const std::string stale = dir.file("out.json.tmp." + std::to_string(dead) + ".12345", "half");
    const std::string alive = dir.file("out.json.tmp." + std::to_string(::getpid()) + ".1", "ours, in flight");
    const std::string other = dir.file("other.json.tmp.1.1", "not this output's");
    write_file_atomically(dir.path() + "/out.json", "done");
    EXPECT_FALSE(fs::exists(stale));
    EXPECT_TRUE(fs::exists(alive));
    EXPECT_TRUE(fs::exists(other));
    EXPECT_EQ(slurp(dir.path() + "/out.json"), "done");
}

TEST(Outputs, KillDuringSavesLeavesAValidFileAndNoTemporary) {
    // A child saves in a loop; SIGKILL lands anywhere in a save. The file is
    // always one whole version and no temporary name survives the next save.
    test::TempDir dir;
    const std::string out = dir.path() + "/out.json";
    const std::string big(1 << 20, 'x');
    for (int round = 0; round < 20; ++round) {
        const pid_t pid = ::fork();
        if (pid == 0) {
            for (int i = 0;; ++i) write_file_atomically(out, std::to_string(i % 10) + big);
        }
        ::usleep(static_cast<useconds_t>(2000 + round * 500));
        ::kill(pid, SIGKILL);
        ::waitpid(pid, nullptr, 0);
        if (fs::exists(out)) {
            const std::string text = slurp(out);
            EXPECT_EQ(text.size(), big.size() + 1);
        }
    }
    write_file_atomically(out, "last");
    EXPECT_EQ(entries(dir.path()), 1u);
}
