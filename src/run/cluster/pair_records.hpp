#pragma once
// The inter-node records of one scheduled pair, as a pure function of what
// the two nodes reported (their LocalEnds): both ranks and rank 0 (which
// writes error records for a pair with a failed node) list the same ones.
//
// For a pair (a, b), a < b: a initiates a->b uni and the bi records, then b
// initiates b->a uni. mpi-host: op sendrecv and put, placement near-nic and,
// when both nodes have another NUMA node, far. mpi-gpu (when both have a GPU):
// op sendrecv, path cuda-aware or staged.
#include <string>
#include <vector>

#include "methods/characterizer.hpp"
#include "methods/mpi/local_ends.hpp"

namespace hwcomm {

struct InterNodeRecord {
    std::string method;   // method_name::kMpiHost | kMpiGpu
    std::string src, dst;  // node-qualified: "node0:numa0"
    ParamSet params;      // op, direction, placement | path
    std::string key;
};

struct InterNodeSelection {
    bool host = true;
    bool gpu = true;
    bool cuda_aware = false;  // the GPU method's path: cuda-aware, else staged
};

// The records `initiator` measures against `peer`; `lower` says whether the
// initiator is the lower rank of the pair (it then measures the bi records too).
std::vector<InterNodeRecord> records_initiated_by(const LocalEnds& initiator, const LocalEnds& peer, bool lower,
                                                  const InterNodeSelection& selection);

// Both halves: every record of the pair.
std::vector<InterNodeRecord> records_of_pair(const LocalEnds& a, const LocalEnds& b, const InterNodeSelection& selection);

}  // namespace hwcomm
