// SMBIOS memory devices (type 17) from hand-made tables, the theoretical DRAM
// bandwidth they imply, and the transparent-huge-page facts read back from
// smaps and sysfs text.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "platform/dmi_memory.hpp"
#include "platform/huge_pages.hpp"

using namespace hwcomm;

namespace {

void put_word(std::string& s, std::size_t at, unsigned v) {
    s[at] = static_cast<char>(v & 0xFF);
    s[at + 1] = static_cast<char>(v >> 8);
}

// One SMBIOS 2.8 type 17 structure (0x28 bytes) and its strings.
std::string memory_device(unsigned size_mib, unsigned width, unsigned speed, unsigned configured, const std::string& locator) {
    std::string s(0x28, '\0');
    s[0] = 17;
    s[1] = 0x28;
    put_word(s, 0x08, width + 8);
    put_word(s, 0x0A, width);
    put_word(s, 0x0C, size_mib);
    s[0x10] = 1;  // device locator: string 1
    s[0x12] = 0x22;  // DDR5
    put_word(s, 0x15, speed);
    put_word(s, 0x20, configured);
    return s + locator + std::string(1, '\0') + "BANK 0" + std::string(2, '\0');
}

std::string end_of_table() { return std::string("\x7f\x04\x00\x00", 4) + std::string(2, '\0'); }

}  // namespace

TEST(DmiMemory, PopulatedDevicesGiveWidthTimesConfiguredSpeed) {
    const std::string table = memory_device(16384, 64, 4800, 4400, "DIMM_A1") + memory_device(0, 64, 0, 0, "DIMM_A2") +
                              memory_device(16384, 64, 4800, 4400, "DIMM_B1") + end_of_table();
    const DramFacts f = parse_smbios_memory(table);
    ASSERT_EQ(f.devices.size(), 2u);  // the empty slot is left out
    EXPECT_EQ(f.devices[0].locator, "DIMM_A1");
    EXPECT_EQ(f.devices[1].locator, "DIMM_B1");
    EXPECT_EQ(f.devices[0].size_bytes, 16ull << 30);
    EXPECT_EQ(f.devices[0].speed_mts, 4400u);  // the configured speed, not the rated 4800
    EXPECT_EQ(f.devices[0].type, "DDR5");
    ASSERT_TRUE(f.theoretical_gbps);
    EXPECT_DOUBLE_EQ(*f.theoretical_gbps, 2 * 8 * 4400e6 / 1e9);
}

TEST(DmiMemory, NoSpeedNoTableOrGarbageSayWhyThereIsNone) {
    const DramFacts unknown = parse_smbios_memory(memory_device(8192, 64, 0, 0, "RAM") + end_of_table());
    EXPECT_FALSE(unknown.theoretical_gbps);
    EXPECT_NE(unknown.note.find("no speed"), std::string::npos);
    const DramFacts none = read_dram_facts("/nonexistent/DMI");
    EXPECT_FALSE(none.theoretical_gbps);
    EXPECT_NE(none.note.find("no SMBIOS table"), std::string::npos);
    for (const std::string& junk : {std::string(), std::string("\x11\x02", 2), std::string(300, '\xff'),
                                    memory_device(1, 64, 1, 1, "X").substr(0, 30)})
        EXPECT_FALSE(parse_smbios_memory(junk).theoretical_gbps);  // no crash, no number
}

TEST(HugePages, SmapsAndSysfsTextAreRead) {
    EXPECT_EQ(selected_word("always [madvise] never"), "madvise");
    EXPECT_EQ(selected_word("garbage"), "");
    const std::string smaps =
        "7f0000000000-7f0000400000 rw-p 00000000 00:00 0\n"
        "Size:               4096 kB\n"
        "AnonHugePages:      2048 kB\n"
        "7f0000400000-7f0000800000 rw-p 00000000 00:00 0\n"
        "AnonHugePages:      4096 kB\n"
        "7f1000000000-7f1000200000 rw-p 00000000 00:00 0\n"
        "AnonHugePages:      2048 kB\n";
    EXPECT_EQ(anon_huge_bytes(smaps, 0x7f0000000000, 0x7f0000800000), 6u << 20);
    EXPECT_EQ(anon_huge_bytes(smaps, 0x7f0000400000, 0x7f0000400001), 4u << 20);
    EXPECT_EQ(anon_huge_bytes(smaps, 0x7e0000000000, 0x7e0000001000), 0u);
}

// host_mem=huge (issue 22 item 4): the reason a node without huge pages gives for its 'skipped' record.
TEST(HugePages, ShortfallNamesWhyABufferGotNoHugePages) {
    HugePages never;
    never.requested = true;
    never.thp_mode = "never";
    never.note = "transparent huge pages are disabled (never)";
    EXPECT_EQ(huge_pages_shortfall(never), "transparent huge pages are disabled (never)");
    HugePages fragmented;
    fragmented.requested = true;
    fragmented.thp_mode = "madvise";
    fragmented.advised = true;
    fragmented.buffer_bytes = 64u << 20;
    count_huge_pages(fragmented, nullptr, 0);  // nothing backed: the note says why
    EXPECT_EQ(fragmented.backed_bytes, 0u);
    EXPECT_EQ(huge_pages_shortfall(fragmented),
              "the kernel gave no huge page to this buffer (fragmented memory, or limits)");
    HugePages partly = fragmented;
    partly.backed_bytes = 2u << 20;  // some of the buffer is enough: what it got is recorded beside it
    EXPECT_EQ(huge_pages_shortfall(partly), "");
    EXPECT_EQ(huge_pages_shortfall(HugePages{}), "huge pages were not asked for");
}

TEST(HugePages, PageSizeIsReadFromSysfsAndZeroWithoutIt) {
    namespace fs = std::filesystem;
    const fs::path root = fs::temp_directory_path() / ("hwcomm-thp-" + std::to_string(::getpid()));
    fs::create_directories(root / "kernel/mm/transparent_hugepage");
    EXPECT_EQ(thp_page_bytes(root.string()), 0u);
    std::ofstream(root / "kernel/mm/transparent_hugepage/hpage_pmd_size") << "2097152\n";
    std::ofstream(root / "kernel/mm/transparent_hugepage/enabled") << "always madvise [never]\n";
    EXPECT_EQ(thp_page_bytes(root.string()), 2u << 20);
    EXPECT_EQ(thp_mode(root.string()), "never");
    std::ofstream(root / "kernel/mm/transparent_hugepage/hpage_pmd_size") << "junk\n";
    EXPECT_EQ(thp_page_bytes(root.string()), 0u);
    fs::remove_all(root);
}
