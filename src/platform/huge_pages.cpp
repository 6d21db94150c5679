#include "platform/huge_pages.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <fstream>
#include <sstream>

#include "core/error.hpp"

namespace hwcomm {

std::string selected_word(const std::string& text) {
    const auto open = text.find('[');
    const auto close = text.find(']', open == std::string::npos ? 0 : open);
    if (open == std::string::npos || close == std::string::npos) return {};
    return text.substr(open + 1, close - open - 1);
}

std::string thp_mode(const std::string& sysfs_root) {
    std::ifstream in(sysfs_root + "/kernel/mm/transparent_hugepage/enabled");
    std::string text;
    if (!in || !std::getline(in, text)) return {};
    return selected_word(text);
}

HugePages advise_huge_pages(void* data, std::size_t bytes) {
    HugePages h;
    h.requested = true;
    h.buffer_bytes = bytes;
    h.thp_mode = thp_mode();
    if (h.thp_mode.empty()) {
        h.note = "this kernel offers no transparent huge pages";
        return h;
    }
    if (h.thp_mode == "never") {
        h.note = "transparent huge pages are disabled (never)";
        return h;
    }
#ifdef MADV_HUGEPAGE
    errno = 0;
    h.advised = madvise(data, bytes, MADV_HUGEPAGE) == 0;
    if (!h.advised) h.note = std::string("madvise(MADV_HUGEPAGE): ") + errno_text();
#else
    (void)data;
    h.note = "no MADV_HUGEPAGE on this system";
#endif
    return h;
}

std::size_t anon_huge_bytes(const std::string& smaps, std::uintptr_t begin, std::uintptr_t end) {
    std::istringstream in(smaps);
    std::string line;
    bool inside = false;
    std::size_t total = 0;
    while (std::getline(in, line)) {
        const auto dash = line.find('-');
        const auto space = line.find(' ');
        if (dash != std::string::npos && space != std::string::npos && dash < space &&
            line.find_first_not_of("0123456789abcdef") == dash) {
            std::uintptr_t lo = 0, hi = 0;
            try {
                lo = std::stoull(line.substr(0, dash), nullptr, 16);
                hi = std::stoull(line.substr(dash + 1, space - dash - 1), nullptr, 16);
            } catch (const std::exception&) {
                inside = false;
                continue;
            }
            inside = lo < end && hi > begin;
            continue;
        }
        if (inside && line.rfind("AnonHugePages:", 0) == 0) {
            std::istringstream fields(line.substr(14));
            std::size_t kb = 0;
            if (fields >> kb) total += kb * 1024;
        }
    }
    return total;
}

void count_huge_pages(HugePages& facts, const void* data, std::size_t bytes) {
    std::ifstream in("/proc/self/smaps");
    std::stringstream text;
    text << in.rdbuf();
    const auto begin = reinterpret_cast<std::uintptr_t>(data);
    facts.backed_bytes = std::min(bytes, anon_huge_bytes(text.str(), begin, begin + bytes));
    if (facts.backed_bytes == 0 && facts.note.empty())
        facts.note = facts.requested ? "the kernel gave no huge page to this buffer (fragmented memory, or limits)"
                                     : "not requested";
}

nlohmann::json huge_pages_to_json(const HugePages& h) {
    nlohmann::json j{{"requested", h.requested}, {"thp_mode", h.thp_mode}, {"advised", h.advised},
                     {"backed_bytes", h.backed_bytes}, {"buffer_bytes", h.buffer_bytes}};
    if (!h.note.empty()) j["note"] = h.note;
    return j;
}

std::size_t thp_page_bytes(const std::string& sysfs_root) {
    std::ifstream in(sysfs_root + "/kernel/mm/transparent_hugepage/hpage_pmd_size");
    std::size_t bytes = 0;
    return in >> bytes ? bytes : 0;
}

std::string huge_pages_shortfall(const HugePages& h) {
    if (h.backed_bytes > 0) return {};
    if (!h.requested) return "huge pages were not asked for";
    return h.note.empty() ? "the kernel gave no huge page to this buffer" : h.note;
}

}  // namespace hwcomm
