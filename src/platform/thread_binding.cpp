#include "platform/thread_binding.hpp"

#include <cerrno>
#include <cstring>

namespace hwcomm {

ScopedThreadBinding::ScopedThreadBinding(const HwlocTopology& topo, int numa_os_index) : topology_(topo.get()) {
    hwloc_obj_t node = topo.numa_node(numa_os_index);
    if (!node || !node->cpuset || hwloc_bitmap_iszero(node->cpuset)) {
        note_ = "NUMA node " + std::to_string(numa_os_index) + " has no PUs to bind to";
        return;
    }
    previous_ = hwloc_bitmap_alloc();
    if (hwloc_get_cpubind(topology_, previous_, HWLOC_CPUBIND_THREAD) != 0) {
        note_ = std::string("cannot read the thread's binding: ") + std::strerror(errno);
        hwloc_bitmap_free(previous_);
        previous_ = nullptr;
        return;
    }
    if (hwloc_set_cpubind(topology_, node->cpuset, HWLOC_CPUBIND_THREAD) != 0) {
        note_ = std::string("cannot bind the thread: ") + std::strerror(errno);
        return;
    }
    bound_ = true;
}

ScopedThreadBinding::~ScopedThreadBinding() {
    if (!previous_) return;
    if (bound_) hwloc_set_cpubind(topology_, previous_, HWLOC_CPUBIND_THREAD);  // best effort in a destructor
    hwloc_bitmap_free(previous_);
}

}  // namespace hwcomm
