#pragma once
// Host buffers of every kind the CUDA methods move data from and to, each on a
// chosen NUMA node, each RAII, each recording where its pages really are:
//   pageable    malloc'd, then every page touched by a thread bound to the node
//               (first-touch placement)
//   pinned      cudaHostAlloc(Portable|Mapped) by a thread bound to the node
//   registered  hwloc strict-bound NumaBuffer, touched, then cudaHostRegister
//   wc          cudaHostAlloc(WriteCombined|Portable|Mapped) by a bound thread
//   huge        as registered, with transparent huge pages asked for before the
//               first touch (madvise); the bytes the kernel really backed with
//               huge pages are recorded, and a node that got none is Unavailable
#include <cstddef>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "platform/hwloc_topology.hpp"
#include "platform/numa_buffer.hpp"
#include "platform/page_placement.hpp"

namespace hwcomm::cuda {

enum class HostMemKind { Pageable, Pinned, Registered, WriteCombined, Huge };

// "pageable" | "pinned" | "registered" | "wc" | "huge"; throws UsageError otherwise.
HostMemKind host_mem_kind_from_string(const std::string& text);
const char* to_string(HostMemKind kind);

// Placement, locate_pages, placement_to_json and touch_pages: platform/page_placement.hpp.

class HostBuffer {
public:
    virtual ~HostBuffer() = default;
    virtual std::byte* data() = 0;
    // Pointer a kernel can dereference (mapped pinned memory), nullptr for pageable.
    virtual std::byte* device_view() = 0;
    virtual std::size_t size() const = 0;
    virtual HostMemKind kind() const = 0;
    // {"kind","numa","placement":{...},"how"}.
    virtual nlohmann::json describe() const = 0;
    // Handed to another session by the pool (host_buffer_pool.hpp): what may
    // have changed while it lay idle is looked at again.
    virtual void on_reuse() {}
    // Pinned/registered/wc/huge pages take part in async DMA; pageable do not.
    bool page_locked() const { return kind() != HostMemKind::Pageable; }
};

// Released buffers are kept for the next record that wants the same kind and
// node and a size they serve (host_buffer_pool.hpp); describe() then says
// "recycled" (and "allocated_bytes" when the buffer is larger than asked).
std::unique_ptr<HostBuffer> make_host_buffer(HostMemKind kind, const HwlocTopology& topo, int numa_os_index,
                                             std::size_t bytes);

}  // namespace hwcomm::cuda
