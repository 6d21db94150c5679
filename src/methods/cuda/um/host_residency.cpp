#include "methods/cuda/um/host_residency.hpp"

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <vector>

#include "platform/page_placement.hpp"

namespace hwcomm::cuda {

std::size_t HostResidency::present() const {
    std::size_t n = 0;
    for (const auto& [node, pages] : on_node) n += pages;
    return n;
}

HostResidency host_residency(const void* data, std::size_t bytes) {
    HostResidency r;
    if (bytes == 0 || data == nullptr) return r;
    const std::size_t page = page_size();
    const auto begin = reinterpret_cast<std::uintptr_t>(data) / page * page;
    const auto end = reinterpret_cast<std::uintptr_t>(data) + bytes;
    r.pages = (end - begin + page - 1) / page;
    // Batches keep the arrays small for ranges of gigabytes.
    constexpr std::size_t kBatch = 4096;
    std::vector<void*> addrs;
    std::vector<int> status;
    for (std::size_t first = 0; first < r.pages; first += kBatch) {
        const std::size_t n = std::min(kBatch, r.pages - first);
        addrs.resize(n);
        status.assign(n, -1);
        for (std::size_t i = 0; i < n; ++i) addrs[i] = reinterpret_cast<void*>(begin + (first + i) * page);
        const long rc = syscall(SYS_move_pages, 0, static_cast<unsigned long>(n), addrs.data(), nullptr,
                                status.data(), 0);
        if (rc != 0) {
            r.unknown += n;
            continue;
        }
        for (int s : status) {
            if (s >= 0) ++r.on_node[s];
            else if (s == -ENOENT) ++r.not_present;
            else ++r.unknown;
        }
    }
    return r;
}

nlohmann::json to_json(const HostResidency& r) {
    nlohmann::json nodes = nlohmann::json::object();
    for (const auto& [node, pages] : r.on_node) nodes[std::to_string(node)] = pages;
    return {{"pages", r.pages}, {"on_node", nodes}, {"not_present", r.not_present}, {"unknown", r.unknown}};
}

}  // namespace hwcomm::cuda
