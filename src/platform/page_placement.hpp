#pragma once
// Where a buffer's pages really are, and the page size they are touched by:
// the one placement check of the project (NUMA buffers of the CPU methods and
// every host buffer of the CUDA methods record it, never hide it).
#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "platform/hwloc_topology.hpp"

namespace hwcomm {

struct Placement {
    bool verified = false;          // every page checked on requested_node
    int requested_node = -1;
    std::vector<int> actual_nodes;  // OS indexes where the pages were found
    std::string note;               // why not verified, or how it was checked
};

// The pages of data[0, bytes) by hwloc_get_area_memlocation; verified when
// they are all on `requested_node`.
Placement locate_pages(const HwlocTopology& topo, const void* data, std::size_t bytes, int requested_node);
// {"verified", "requested_node", "actual_nodes", "note"}.
nlohmann::json placement_to_json(const Placement& p);

// The system page size (sysconf), 4096 when unknown.
std::size_t page_size();
// Writes one byte of every page (and the last byte) so the kernel places the
// pages now, under the calling thread's binding or the buffer's policy.
void touch_pages(std::byte* data, std::size_t bytes);

}  // namespace hwcomm
