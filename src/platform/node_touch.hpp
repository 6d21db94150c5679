#pragma once
// First touch of a large buffer from several threads of one NUMA node. The
// kernel zeroes and places each page on the fault of the thread that touches
// it first; one thread does that at about 0.45 s a GiB on the dev VM (0.25 s
// on two), which made allocation most of a large record's time outside its
// points.
#include <cstddef>

#include "platform/hwloc_topology.hpp"

namespace hwcomm {

// Touches one byte of every page of data[0, bytes) (and the last byte) from
// threads bound to the PUs of NUMA node `numa`: one per core of the node, at
// most 16, and only the calling thread below 64 MiB. A thread that cannot be
// bound leaves its share to the calling thread, so a page is never placed by
// an unbound helper: it lands where the caller's binding or the buffer's
// memory policy puts it, as with touch_pages.
void touch_pages_on_node(const HwlocTopology& topo, int numa, std::byte* data, std::size_t bytes);

}  // namespace hwcomm
