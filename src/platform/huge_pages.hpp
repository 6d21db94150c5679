#pragma once
// Transparent huge pages for the buffers of the CPU latency methods: a random
// chase over a buffer of 4 KiB pages measures TLB misses as much as memory.
// Whether the kernel offers them, the advice given, and how many bytes of a
// buffer really ended up on huge pages (read back from /proc/self/smaps):
// recorded with the record, never assumed.
#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

namespace hwcomm {

struct HugePages {
    bool requested = false;
    std::string thp_mode;          // "always", "madvise", "never", "" when the kernel has no THP
    bool advised = false;          // madvise(MADV_HUGEPAGE) succeeded
    std::size_t backed_bytes = 0;  // AnonHugePages of the buffer's mappings, after touching
    std::size_t buffer_bytes = 0;
    std::string note;              // why none, when none
};

// The bracketed word of /sys/kernel/mm/transparent_hugepage/enabled ("" when absent).
std::string thp_mode(const std::string& sysfs_root = "/sys");
// The selected word of a THP sysfs file's text ("always [madvise] never" -> "madvise").
std::string selected_word(const std::string& text);
// Asks for huge pages on [data, data + bytes), before the pages are touched.
HugePages advise_huge_pages(void* data, std::size_t bytes);
// Fills backed_bytes (and note when none) after the pages were touched.
void count_huge_pages(HugePages& facts, const void* data, std::size_t bytes);
// Sum of AnonHugePages (bytes) of the mappings of an smaps text that overlap [begin, end).
std::size_t anon_huge_bytes(const std::string& smaps, std::uintptr_t begin, std::uintptr_t end);
nlohmann::json huge_pages_to_json(const HugePages& facts);
// The size of one transparent huge page (hpage_pmd_size: 2 MiB on x86-64), 0 when the kernel says none.
std::size_t thp_page_bytes(const std::string& sysfs_root = "/sys");
// Why a buffer that asked for huge pages has none ("" when some of it is on huge pages): a
// measurement that needs them is not applicable on this machine, for this reason.
std::string huge_pages_shortfall(const HugePages& facts);

}  // namespace hwcomm
