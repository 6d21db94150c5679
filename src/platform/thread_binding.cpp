#include "platform/thread_binding.hpp"

#include <cerrno>

#include "core/error.hpp"

namespace hwcomm {

namespace {

hwloc_obj_t nth_inside(hwloc_topology_t t, hwloc_const_cpuset_t set, hwloc_obj_type_t type, int i) {
    return hwloc_get_obj_inside_cpuset_by_type(t, set, type, static_cast<unsigned>(i));
}

}  // namespace

std::vector<CoreSlot> core_slots_of_numa(const HwlocTopology& topo, int numa_os_index, bool smt) {
    hwloc_obj_t node = topo.numa_node(numa_os_index);
    if (!node || !node->cpuset) return {};
    hwloc_topology_t t = topo.get();
    std::vector<CoreSlot> slots;
    const int cores = hwloc_get_nbobjs_inside_cpuset_by_type(t, node->cpuset, HWLOC_OBJ_CORE);
    if (cores <= 0) {
        const int pus = hwloc_get_nbobjs_inside_cpuset_by_type(t, node->cpuset, HWLOC_OBJ_PU);
        for (int p = 0; p < pus; ++p)
            slots.push_back({-1, static_cast<int>(nth_inside(t, node->cpuset, HWLOC_OBJ_PU, p)->os_index)});
        return slots;
    }
    // Round j takes the j-th PU of every core that has one: first PUs first.
    for (int round = 0;; ++round) {
        const std::size_t before = slots.size();
        for (int c = 0; c < cores; ++c) {
            hwloc_obj_t core = nth_inside(t, node->cpuset, HWLOC_OBJ_CORE, c);
            hwloc_obj_t pu = nth_inside(t, core->cpuset, HWLOC_OBJ_PU, round);
            if (pu) slots.push_back({static_cast<int>(core->logical_index), static_cast<int>(pu->os_index)});
        }
        if (!smt || slots.size() == before) break;
    }
    return slots;
}

ScopedThreadBinding::ScopedThreadBinding(const HwlocTopology& topo, int numa_os_index) : topology_(topo.get()) {
    hwloc_obj_t node = topo.numa_node(numa_os_index);
    if (!node || !node->cpuset || hwloc_bitmap_iszero(node->cpuset)) {
        note_ = "NUMA node " + std::to_string(numa_os_index) + " has no PUs to bind to";
        return;
    }
    bind(node->cpuset);
}

ScopedThreadBinding::ScopedThreadBinding(const HwlocTopology& topo, const CoreSlot& slot) : topology_(topo.get()) {
    if (slot.pu < 0) {
        note_ = "no PU to bind to";
        return;
    }
    hwloc_cpuset_t one = hwloc_bitmap_alloc();
    hwloc_bitmap_only(one, static_cast<unsigned>(slot.pu));
    bind(one);
    hwloc_bitmap_free(one);
}

void ScopedThreadBinding::bind(hwloc_const_cpuset_t cpus) {
    previous_ = hwloc_bitmap_alloc();
    if (hwloc_get_cpubind(topology_, previous_, HWLOC_CPUBIND_THREAD) != 0) {
        note_ = std::string("cannot read the thread's binding: ") + errno_text();
        hwloc_bitmap_free(previous_);
        previous_ = nullptr;
        return;
    }
    if (hwloc_set_cpubind(topology_, cpus, HWLOC_CPUBIND_THREAD) != 0) {
        note_ = std::string("cannot bind the thread: ") + errno_text();
        return;
    }
    bound_ = true;
}

ScopedThreadBinding::~ScopedThreadBinding() {
    if (!previous_) return;
    if (bound_) hwloc_set_cpubind(topology_, previous_, HWLOC_CPUBIND_THREAD);  // best effort in a destructor
    hwloc_bitmap_free(previous_);
}

int current_pu(const HwlocTopology& topo) {
    hwloc_cpuset_t where = hwloc_bitmap_alloc();
    int pu = -1;
    if (hwloc_get_last_cpu_location(topo.get(), where, HWLOC_CPUBIND_THREAD) == 0) pu = hwloc_bitmap_first(where);
    hwloc_bitmap_free(where);
    return pu;
}

}  // namespace hwcomm
