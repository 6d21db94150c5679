#pragma once
// Memory strictly bound to one NUMA node, every page touched and its placement
// checked with hwloc_get_area_memlocation. A buffer whose placement cannot be
// guaranteed says so in placement(); callers record it, never hide it.
#include <cstddef>
#include <string>
#include <vector>

#include "platform/huge_pages.hpp"
#include "platform/hwloc_topology.hpp"
#include "platform/page_placement.hpp"

namespace hwcomm {

struct BufferOptions {
    // Ask for transparent huge pages before the first touch (huge_pages() says what came).
    bool huge_pages = false;
    // The caller touches the pages (each worker its own chunk, first-touch
    // placement), then calls locate(); placement() is unverified until then.
    bool touch_later = false;
};

class NumaBuffer {
public:
    // hwloc_alloc_membind(BIND, STRICT|BYNODESET), touches every page, verifies
    // the placement. Throws MeasurementError when the allocation fails.
    NumaBuffer(const HwlocTopology& topo, int numa_os_index, std::size_t bytes, BufferOptions options = {});
    ~NumaBuffer();
    NumaBuffer(NumaBuffer&& other) noexcept;
    NumaBuffer& operator=(NumaBuffer&& other) noexcept;
    NumaBuffer(const NumaBuffer&) = delete;
    NumaBuffer& operator=(const NumaBuffer&) = delete;

    std::byte* data() { return data_; }
    const std::byte* data() const { return data_; }
    std::size_t size() const { return bytes_; }
    const Placement& placement() const { return placement_; }
    const HugePages& huge_pages() const { return huge_pages_; }
    // After the caller touched every page (BufferOptions::touch_later): where they went.
    void locate(const HwlocTopology& topo);

private:
    void release() noexcept;

    hwloc_topology_t topology_ = nullptr;  // borrowed: the HwlocTopology outlives the buffer
    std::byte* data_ = nullptr;
    std::size_t bytes_ = 0;
    Placement placement_;
    HugePages huge_pages_;
};

}  // namespace hwcomm
