#include "platform/numa_buffer.hpp"

#include <algorithm>
#include <cerrno>
#include <utility>

#include "core/error.hpp"
#include "platform/node_touch.hpp"

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

}  // namespace

NumaBuffer::NumaBuffer(const HwlocTopology& topo, int numa_os_index, std::size_t bytes, BufferOptions options)
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
                               std::to_string(numa_os_index) + ": " + errno_text());
    data_ = static_cast<std::byte*>(p);
    if (options.huge_pages) huge_pages_ = advise_huge_pages(data_, alloc_bytes);
    if (options.touch_later) {
        placement_.note = "pages not touched yet";
        return;
    }
    touch_pages_on_node(topo, numa_os_index, data_, alloc_bytes);  // places every page now, under the strict policy
    locate(topo);
}

void NumaBuffer::locate(const HwlocTopology& topo) {
    const std::size_t alloc_bytes = std::max<std::size_t>(bytes_, 1);
    placement_ = locate_pages(topo, data_, alloc_bytes, placement_.requested_node);
    if (huge_pages_.requested) count_huge_pages(huge_pages_, data_, alloc_bytes);
}

NumaBuffer::~NumaBuffer() { release(); }

NumaBuffer::NumaBuffer(NumaBuffer&& other) noexcept
    : topology_(other.topology_), data_(std::exchange(other.data_, nullptr)),
      bytes_(std::exchange(other.bytes_, 0)), placement_(std::move(other.placement_)),
      huge_pages_(std::move(other.huge_pages_)) {}

NumaBuffer& NumaBuffer::operator=(NumaBuffer&& other) noexcept {
    if (this != &other) {
        release();
        topology_ = other.topology_;
        data_ = std::exchange(other.data_, nullptr);
        bytes_ = std::exchange(other.bytes_, 0);
        placement_ = std::move(other.placement_);
        huge_pages_ = std::move(other.huge_pages_);
    }
    return *this;
}

void NumaBuffer::release() noexcept {
    if (data_) hwloc_free(topology_, data_, std::max<std::size_t>(bytes_, 1));
    data_ = nullptr;
}

}  // namespace hwcomm
