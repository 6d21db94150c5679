#pragma once
// Binds the calling thread to one PU, or to the PUs of one NUMA node, and
// restores the previous binding when it goes out of scope. Inside an OpenMP
// parallel region, each worker creates its own (HWLOC_CPUBIND_THREAD).
#include <string>
#include <vector>

#include "platform/hwloc_topology.hpp"

namespace hwcomm {

// Where one worker runs: a physical core and the PU (hardware thread) of it.
struct CoreSlot {
    int core = -1;  // hwloc logical index of the core; -1 when hwloc reports no cores
    int pu = -1;    // OS index of the PU the worker is bound to
    bool operator==(const CoreSlot&) const = default;
};

// The places for workers on one NUMA node, in the order workers take them:
// the first PU of every core of the node (cores in hwloc order), so that N
// workers sit on N distinct cores; with `smt`, then the second PU of every
// core, and so on. Empty for a node without PUs. A node whose cores hwloc does
// not know gives one slot per PU.
std::vector<CoreSlot> core_slots_of_numa(const HwlocTopology& topo, int numa_os_index, bool smt);

class ScopedThreadBinding {
public:
    // Binds to every PU of the node (first-touch helpers).
    ScopedThreadBinding(const HwlocTopology& topo, int numa_os_index);
    // Binds to the one PU of the slot (measurement workers).
    ScopedThreadBinding(const HwlocTopology& topo, const CoreSlot& slot);
    ~ScopedThreadBinding();
    ScopedThreadBinding(const ScopedThreadBinding&) = delete;
    ScopedThreadBinding& operator=(const ScopedThreadBinding&) = delete;
    ScopedThreadBinding(ScopedThreadBinding&&) = delete;
    ScopedThreadBinding& operator=(ScopedThreadBinding&&) = delete;

    bool bound() const { return bound_; }
    // Why the thread could not be bound, or could not be restored.
    const std::string& note() const { return note_; }

private:
    void bind(hwloc_const_cpuset_t cpus);

    hwloc_topology_t topology_ = nullptr;
    hwloc_cpuset_t previous_ = nullptr;  // owned; nullptr when nothing to restore
    bool bound_ = false;
    std::string note_;
};

// The OS index of the PU the calling thread ran on last; -1 when unknown.
int current_pu(const HwlocTopology& topo);

}  // namespace hwcomm
