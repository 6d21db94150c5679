// Bad input: one UsageError naming the file, never a crash.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>

#include "core/error.hpp"
#include "discover/discover.hpp"
#include "discover/test_support.hpp"

using namespace hwcomm;

namespace {

// The message of the UsageError discover_machine throws ("" when none).
std::string usage_error(const DiscoverOptions& options) {
    try {
        discover_machine(options);
    } catch (const UsageError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(BadInput, MissingXmlFileIsNamed) {
    const std::string msg = usage_error({.input_xml = "/nonexistent/topo.xml"});
    EXPECT_EQ(msg, "cannot read topology file /nonexistent/topo.xml: No such file or directory");
}

TEST(BadInput, NotXmlIsNamed) {
    test::TempDir dir;
    const std::string text = dir.file("notes.txt", "this is not a topology\n");
    EXPECT_EQ(usage_error({.input_xml = text}), text + " is not an hwloc XML export");
    const std::string json = dir.file("graph.json", "{\"schema\": \"hwcomm-topology\"}\n");
    EXPECT_EQ(usage_error({.input_xml = json}), json + " is not an hwloc XML export");
}

TEST(BadInput, MalformedXmlIsNamed) {
    test::TempDir dir;
    const std::string cut = dir.file("cut.xml", "<?xml version=\"1.0\"?>\n<topology version=\"2.0\">\n<object type=\"Machine\"");
    const std::string msg = usage_error({.input_xml = cut});
    EXPECT_NE(msg.find(cut), std::string::npos) << msg;
    EXPECT_NE(msg.find("not an hwloc XML export"), std::string::npos) << msg;
}

TEST(BadInput, DirectoryGivenAsXml) {
    test::TempDir dir;
    const std::string msg = usage_error({.input_xml = dir.path()});
    EXPECT_NE(msg.find(dir.path()), std::string::npos) << msg;
}

TEST(BadInput, FsrootThatIsNotASysfsTree) {
    EXPECT_NE(usage_error({.fsroot = "/nonexistent/root"}).find("/nonexistent/root"), std::string::npos);
    test::TempDir dir;
    EXPECT_EQ(usage_error({.fsroot = dir.path()}), dir.path() + " is not a saved Linux sysfs tree (no sys/ inside)");
}

TEST(BadInput, FsrootWithANamedPipeIsRefusedBeforeHwlocReadsIt) {
    // hwloc reads the tree with open() and read(): a pipe in it would block it forever.
    test::TempDir dir;
    std::filesystem::create_directories(dir.path() + "/sys/devices/system/cpu");
    const std::string online = dir.path() + "/sys/devices/system/cpu/online";
    ASSERT_EQ(::mkfifo(online.c_str(), 0600), 0);
    EXPECT_EQ(usage_error({.fsroot = dir.path()}), "cannot read sysfs tree " + dir.path() +
                                                       ": sys/devices/system/cpu/online is not a regular file "
                                                       "(a pipe, socket or device)");
    std::filesystem::remove(online);
    std::filesystem::create_symlink("/dev/zero", online);  // a device through a link, too
    EXPECT_NE(usage_error({.fsroot = dir.path()}).find("online is not a regular file"), std::string::npos);
}

TEST(BadInput, InputAndFsrootTogether) {
    EXPECT_EQ(usage_error({.input_xml = test::minsky_xml(), .fsroot = "/tmp"}), "--input and --fsroot exclude each other");
}

TEST(BadInput, NvmlRecordingMissingOrWrong) {
    EXPECT_EQ(usage_error({.input_xml = test::minsky_xml(), .nvml_replay = "/nonexistent/nvml.json"}),
              "cannot read NVML recording /nonexistent/nvml.json: No such file or directory");
    test::TempDir dir;
    const std::string garbage = dir.file("nvml.json", "not json");
    EXPECT_EQ(usage_error({.input_xml = test::minsky_xml(), .nvml_replay = garbage}).rfind(garbage + " is not valid JSON (line 1", 0),
              0u);
    // The guarded input path: a named pipe is refused, not waited on.
    const std::string fifo = dir.path() + "/fifo.json";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_EQ(usage_error({.input_xml = test::minsky_xml(), .nvml_replay = fifo}),
              "cannot read NVML recording " + fifo + ": not a regular file (a pipe, socket or device)");
    const std::string other = dir.file("other.json", "{\"format\": \"something-else\"}");
    EXPECT_EQ(usage_error({.input_xml = test::minsky_xml(), .nvml_replay = other}),
              other + " is not an hwcomm NVML recording");
    const std::string broken = dir.file("broken.json", "{\"format\": \"hwcomm-nvml-recording\", \"format_version\": 1, \"devices\": [{}]}");
    EXPECT_NE(usage_error({.input_xml = test::minsky_xml(), .nvml_replay = broken}).find("malformed NVML recording"),
              std::string::npos);
}
