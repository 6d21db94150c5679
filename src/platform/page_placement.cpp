#include "platform/page_placement.hpp"

#include <unistd.h>

#include <cerrno>

#include "core/error.hpp"

namespace hwcomm {

Placement locate_pages(const HwlocTopology& topo, const void* data, std::size_t bytes, int requested_node) {
    Placement pl;
    pl.requested_node = requested_node;
    hwloc_bitmap_t where = hwloc_bitmap_alloc();
    if (!where) {
        pl.note = "out of memory for an hwloc bitmap";
        return pl;
    }
    errno = 0;
    if (hwloc_get_area_memlocation(topo.get(), data, bytes == 0 ? 1 : bytes, where, HWLOC_MEMBIND_BYNODESET) != 0) {
        pl.note = std::string("hwloc_get_area_memlocation failed: ") + errno_text();
    } else {
        for (int i = hwloc_bitmap_first(where); i >= 0; i = hwloc_bitmap_next(where, i)) pl.actual_nodes.push_back(i);
        if (pl.actual_nodes.empty()) {
            pl.note = "hwloc_get_area_memlocation found no node for the pages";
        } else if (pl.actual_nodes.size() == 1 && pl.actual_nodes.front() == requested_node) {
            pl.verified = true;
            pl.note = "all pages on the requested node (hwloc_get_area_memlocation)";
        } else {
            pl.note = "pages found outside the requested node";
        }
    }
    hwloc_bitmap_free(where);
    return pl;
}

nlohmann::json placement_to_json(const Placement& p) {
    return {{"verified", p.verified}, {"requested_node", p.requested_node}, {"actual_nodes", p.actual_nodes},
            {"note", p.note}};
}

std::size_t page_size() {
    const long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? static_cast<std::size_t>(p) : 4096;
}

void touch_pages(std::byte* data, std::size_t bytes) {
    const std::size_t step = page_size();
    for (std::size_t off = 0; off < bytes; off += step) data[off] = std::byte{0};
    if (bytes > 0) data[bytes - 1] = std::byte{0};
}

}  // namespace hwcomm
