#pragma once
// A confirmation round (run/confirmation_rounds.hpp) of a GPU-to-GPU copy
// method: every pair of the round a lane of one ConcurrentCopySession, with
// the executor and initiator of the method's own copy, started together by
// the lane group's gate; each lane keeps its own time and data check.
#include <memory>
#include <string>
#include <vector>

#include "methods/characterizer.hpp"
#include "methods/cuda/lanes/copy_lanes.hpp"

namespace hwcomm::cuda {

// Throws MeasurementError when a lane's GPUs are not CUDA GPUs or buffers do not fit.
std::unique_ptr<TransferSession> prepare_copy_round(const Graph& graph, const std::vector<RoundLane>& lanes,
                                                    Executor executor, Initiator initiator,
                                                    const std::string& method, std::size_t max_bytes,
                                                    const MethodOptions& options);

}  // namespace hwcomm::cuda
