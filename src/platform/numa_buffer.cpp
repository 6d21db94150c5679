#include "platform/numa_buffer.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include "core/error.hpp"

namespace hwcomm {

namespace {

// RAII for an hwloc bitmap used only in this file.
struct Bitmap {
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    ~Bitmap() { hwloc_bitmap_free(set); }
    Bitmap() = default;
    Bitmap(const Bitmap&) = delete;
    Bitmap& operator=(const Bitmap&) = delete;
};

std::size_t page_size() {
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? static_cast<std::size_t>(p) : 4096;
}

Placement check_placement(hwloc_topology_t topo, const void* data, std::size_t bytes, int requested) {
    Placement pl;
    pl.requested_node = requested;
    Bitmap where;
    if (hwloc_get_area_memlocation(topo, data, bytes, where.set, HWLOC_MEMBIND_BYNODESET) != 0) {
        pl.note = std::string("hwloc_get_area_memlocation failed: ") + std::strerror(errno);
        return pl;
    }
    for (int i = hwloc_bitmap_first(where.set); i >= 0; i = hwloc_bitmap_next(where.set, i))
        pl.actual_nodes.push_back(i);
    if (pl.actual_nodes.empty()) {
        pl.note = "hwloc_get_area_memlocation found no node for the pages";
    } else if (pl.actual_nodes.size() == 1 && pl.actual_nodes.front() == requested) {
        pl.verified = true;
        pl.note = "all pages on the requested node (hwloc_get_area_memlocation)";
    } else {
        pl.note = "pages found outside the requested node";
    }
    return pl;
}

}  // namespace

NumaBuffer::NumaBuffer(const HwlocTopology& topo, int numa_os_index, std::size_t bytes)
    : topology_(topo.get()), bytes_(bytes) {
    placement_.requested_node = numa_os_index;
    if (!topo.numa_node(numa_os_index))
        throw MeasurementError("NUMA node " + std::to_string(numa_os_index) + " does not exist on this machine");
    const std::size_t alloc_bytes = std::max<std::size_t>(bytes, 1);
    Bitmap nodes;
    hwloc_bitmap_only(nodes.set, static_cast<unsigned>(numa_os_index));
    errno = 0;
    void* p = hwloc_alloc_membind(topology_, alloc_bytes, nodes.set, HWLOC_MEMBIND_BIND,
                                  HWLOC_MEMBIND_STRICT | HWLOC_MEMBIND_BYNODESET);
    if (!p)
        throw MeasurementError("cannot allocate " + std::to_string(bytes) + " bytes bound to NUMA node " +
                               std::to_string(numa_os_index) + ": " + std::strerror(errno));
    data_ = static_cast<std::byte*>(p);
    bytes_ = alloc_bytes;
    // Touch every page so the kernel places it now, under the strict policy.
    const std::size_t step = page_size();
    for (std::size_t off = 0; off < bytes_; off += step) data_[off] = std::byte{0};
    data_[bytes_ - 1] = std::byte{0};
    bytes_ = bytes;
    placement_ = check_placement(topology_, data_, alloc_bytes, numa_os_index);
}

NumaBuffer::~NumaBuffer() { release(); }

NumaBuffer::NumaBuffer(NumaBuffer&& other) noexcept
    : topology_(other.topology_), data_(std::exchange(other.data_, nullptr)),
      bytes_(std::exchange(other.bytes_, 0)), placement_(std::move(other.placement_)) {}

NumaBuffer& NumaBuffer::operator=(NumaBuffer&& other) noexcept {
    if (this != &other) {
        release();
        topology_ = other.topology_;
        data_ = std::exchange(other.data_, nullptr);
        bytes_ = std::exchange(other.bytes_, 0);
        placement_ = std::move(other.placement_);
    }
    return *this;
}

void NumaBuffer::release() noexcept {
    if (data_) hwloc_free(topology_, data_, std::max<std::size_t>(bytes_, 1));
    data_ = nullptr;
}

}  // namespace hwcomm
