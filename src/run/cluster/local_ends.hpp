#pragma once
// This rank's endpoints for the inter-node methods, from its own graph, and
// LocalEnds as JSON (ranks exchange them before the pairs are measured).
#include <string>

#include <nlohmann/json.hpp>

#include "core/graph.hpp"
#include "methods/mpi/local_ends.hpp"

namespace hwcomm {

// The NIC: the first network interface vertex that is not a loopback or
// virtual one; the NUMA node nearest it (else the first NUMA node); another
// NUMA node when there is one; the GPU with CUDA ordinal `gpu_ordinal` (the
// rank's local rank modulo the GPUs CUDA sees), none when -1 or absent.
LocalEnds choose_local_ends(const Graph& graph, const std::string& node, int gpu_ordinal);

nlohmann::json local_ends_to_json(const LocalEnds& ends);
LocalEnds local_ends_from_json(const nlohmann::json& j);

}  // namespace hwcomm
