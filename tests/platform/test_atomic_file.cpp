#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "platform/atomic_file.hpp"

using namespace hwcomm;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

struct TempDir {
    fs::path path;
    TempDir() {
        path = fs::temp_directory_path() / ("hwcomm-atomic-" + std::to_string(::getpid()));
        fs::create_directories(path);
    }
    ~TempDir() { fs::remove_all(path); }
    std::size_t entries() const { return static_cast<std::size_t>(std::distance(fs::directory_iterator(path), {})); }
};

}  // namespace

TEST(AtomicFile, WritesAndReplaces) {
    TempDir dir;
    const auto file = (dir.path / "out.json").string();
    write_file_atomically(file, "first");
    EXPECT_EQ(slurp(file), "first");
    write_file_atomically(file, "second, longer");
    EXPECT_EQ(slurp(file), "second, longer");
    EXPECT_EQ(dir.entries(), 1u);  // no temporary left behind
}

TEST(AtomicFile, FailureLeavesNoTemporaryAndTheTargetIntact) {
    TempDir dir;
    const auto target = dir.path / "a-directory";
    fs::create_directories(target / "inside");
    EXPECT_THROW(write_file_atomically(target.string(), "x"), std::runtime_error);
    EXPECT_TRUE(fs::is_directory(target / "inside"));
    EXPECT_EQ(dir.entries(), 1u);
}

TEST(AtomicFile, MissingDirectoryIsReported) {
    TempDir dir;
    const auto file = (dir.path / "no" / "such" / "out.json").string();
    EXPECT_THROW(write_file_atomically(file, "x"), std::runtime_error);
    std::string why;
    EXPECT_FALSE(directory_writable_for(file, &why));
    EXPECT_FALSE(why.empty());
    EXPECT_TRUE(directory_writable_for((dir.path / "ok.json").string()));
    EXPECT_EQ(dir.entries(), 0u);  // the probe cleaned up
}
