// Bad input: one UsageError naming the file, never a crash.
#include <gtest/gtest.h>

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

TEST(BadInput, InputAndFsrootTogether) {
    EXPECT_EQ(usage_error({.input_xml = test::minsky_xml(), .fsroot = "/tmp"}), "--input and --fsroot exclude each other");
}

TEST(BadInput, NvmlRecordingMissingOrWrong) {
    EXPECT_EQ(usage_error({.input_xml = test::minsky_xml(), .nvml_replay = "/nonexistent/nvml.json"}),
              "cannot read NVML recording /nonexistent/nvml.json");
    test::TempDir dir;
    const std::string garbage = dir.file("nvml.json", "not json");
    EXPECT_EQ(usage_error({.input_xml = test::minsky_xml(), .nvml_replay = garbage}),
              garbage + " is not an hwcomm NVML recording (not JSON)");
    const std::string other = dir.file("other.json", "{\"format\": \"something-else\"}");
    EXPECT_EQ(usage_error({.input_xml = test::minsky_xml(), .nvml_replay = other}),
              other + " is not an hwcomm NVML recording");
    const std::string broken = dir.file("broken.json", "{\"format\": \"hwcomm-nvml-recording\", \"format_version\": 1, \"devices\": [{}]}");
    EXPECT_NE(usage_error({.input_xml = test::minsky_xml(), .nvml_replay = broken}).find("malformed NVML recording"),
              std::string::npos);
}
