// Malformed hwloc exports that crash hwloc 2.9 (minimised from mutants of the
// fixtures) end in one UsageError; every real export still loads.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "discover/discover.hpp"
#include "discover/test_support.hpp"

using namespace hwcomm;

namespace {

std::string usage_error(const std::string& xml) {
    try {
        discover_machine({.input_xml = xml, .use_nvml = false, .use_cuda = false});
    } catch (const UsageError& e) {
        return e.what();
    }
    return "";
}

std::string read(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Release: under 2 s on the 2-core dev VM (the quadratic search took 23 s for
// 3,000 copies). AddressSanitizer at -O0 is about 10x slower.
#if defined(__SANITIZE_ADDRESS__)
constexpr double kCpuBudgetSeconds = 30;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr double kCpuBudgetSeconds = 30;
#else
constexpr double kCpuBudgetSeconds = 5;
#endif
#else
constexpr double kCpuBudgetSeconds = 5;
#endif

}  // namespace

TEST(HwlocGuard, CrashingExportsAreRefusedInOneLine) {
    // Both end in SIGSEGV inside hwloc_topology_load when loaded directly.
    for (const char* name : {"fuzz/hwloc-segv-pu-attribute-flip.xml", "fuzz/hwloc-segv-numa-outside-machine.xml"}) {
        const std::string path = test::fixture(name);
        const std::string msg = usage_error(path);
        EXPECT_EQ(msg.find(path), 0u) << msg;
        EXPECT_NE(msg.find("malformed hwloc XML export"), std::string::npos) << msg;
        EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    }
}

TEST(HwlocGuard, ExportHwlocAcceptsButOurIdsCannotHoldIsRefused) {
    // Package os_index "zz" reads as 0: two "package0" vertices (exit 1 "duplicate vertex id" before).
    const std::string path = test::fixture("fuzz/hwloc-duplicate-package-index.xml");
    EXPECT_EQ(usage_error(path), path + " is a malformed hwloc XML export (its objects break hwloc's invariants)");
}

TEST(HwlocGuard, EnumAttributeOutsideHwlocsRangeIsRefused) {
    // bridge_type "2-1": hwloc keeps 2 in hwloc_obj_bridge_type_t (0 or 1); reading it was a UBSan finding.
    const std::string path = test::fixture("fuzz/hwloc-ubsan-bridge-type-2.xml");
    EXPECT_EQ(usage_error(path), path + " is a malformed hwloc XML export (its objects break hwloc's invariants)");
}

TEST(HwlocGuard, ExportHwlocRefusesWithABannerIsOneLine) {
    const std::string path = test::fixture("fuzz/hwloc-banner-out-of-order.xml");
    EXPECT_EQ(usage_error(path), path + " is not an hwloc XML export (hwloc cannot parse it)");
}

TEST(HwlocGuard, EveryRealExportStillLoads) {
    for (const std::string& xml : {test::minsky_xml(), test::wholeio_xml(), test::x58_xml()}) {
        const Graph g = discover_machine({.input_xml = xml, .use_nvml = false, .use_cuda = false});
        EXPECT_GE(g.of_kind(VertexKind::NumaNode).size(), 1u) << xml;
        const auto pci = std::count_if(g.vertices().begin(), g.vertices().end(), [](const Vertex& v) { return v.pci.has_value(); });
        EXPECT_GE(pci, 3) << xml;
    }
}

TEST(HwlocGuard, NamedPipeIsRefusedAtOnce) {
    test::TempDir dir;
    const std::string fifo = dir.path() + "/topo.xml";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(usage_error(fifo), "cannot read topology file " + fifo + ": not a regular file (a pipe, socket or device)");
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

TEST(HwlocGuard, DeepNestingIsRefusedOrLoaded) {
    // 100,000 nested Groups: hwloc refuses it; the child's answer comes back as one line.
    test::TempDir dir;
    std::string text = read(test::x58_xml());
    const auto at = text.find("<object");
    std::string open;
    for (int i = 0; i < 100000; ++i) open += "<object type=\"Group\">";
    text.insert(at, open);
    const std::string path = dir.file("deep.xml", text);
    const std::string msg = usage_error(path);
    EXPECT_EQ(msg.find(path), 0u) << msg;
}

TEST(HwlocGuard, PciAddressRepeatedThousandsOfTimesLoadsFast) {
    // Issue 16: 3,000 copies of one PCI function took 23 s (unique ids were searched from #1 each time);
    // 2,000 here, timed in CPU seconds of this process so a loaded machine or a sanitizer build cannot fail it.
    std::string text = read(test::x58_xml());
    const std::string open = "          <object type=\"PCIDev\" gp_index=\"37\"";
    const auto begin = text.find(open);
    ASSERT_NE(begin, std::string::npos);
    const std::string close = "\n          </object>\n";  // the device's own closing tag, not its OS device's
    const auto end = text.find(close, begin) + close.size();
    const std::string device = text.substr(begin, end - begin);
    // Distinct gp_index values: hwloc itself refuses (asserts on) duplicates, which the next test checks.
    std::string copies;
    for (int i = 0; i < 2000; ++i) {
        std::string copy = device;
        for (int k : {0, 1}) {
            const std::string gp = "gp_index=\"" + std::to_string(37 + k) + "\"";
            copy.replace(copy.find(gp), gp.size(), "gp_index=\"" + std::to_string(100000 + 2 * i + k) + "\"");
        }
        copies += copy;
    }
    const std::string duplicated = [&] {
        std::string t = text;
        std::string same;
        for (int i = 0; i < 2000; ++i) same += device;
        return t.replace(begin, end - begin, same);
    }();
    text.replace(begin, end - begin, copies);
    test::TempDir dir;
    const std::string path = dir.file("repeated.xml", text);
    const std::string dup_path = dir.file("duplicated.xml", duplicated);
    EXPECT_EQ(usage_error(dup_path).find(dup_path + " is a malformed hwloc XML export"), 0u);
    const std::clock_t start = std::clock();
    const Graph g = discover_machine({.input_xml = path, .use_nvml = false, .use_cuda = false});
    EXPECT_LT(static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC, kCpuBudgetSeconds);
    EXPECT_TRUE(g.find("pci:0000:04:00.0"));
    EXPECT_TRUE(g.find("pci:0000:04:00.0#1999"));
    EXPECT_FALSE(g.find("pci:0000:04:00.0#2000"));
}
