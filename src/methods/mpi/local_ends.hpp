#pragma once
// This rank's endpoints for the inter-node methods, chosen from its own graph
// by the cluster run (run/cluster/local_ends.cpp): the NUMA node nearest the
// NIC, another NUMA node when there is one, the GPU this rank uses.
#include <string>

namespace hwcomm {

struct LocalEnds {
    std::string node;          // this rank's node name
    std::string nic;           // vertex id of the NIC, "" when the graph has none
    int near_numa = -1;        // OS index of the NUMA node nearest the NIC (the first node when unknown)
    std::string near_numa_id;  // its vertex id
    int far_numa = -1;         // another NUMA node, -1 when there is only one
    std::string far_numa_id;
    int gpu_ordinal = -1;      // CUDA ordinal, -1 when none
    std::string gpu_id;
};

}  // namespace hwcomm
