#pragma once
// What a CUDA build plugs into the transfer-set method: sessions for sets
// with GPU lanes, and each GPU's free memory for the checks before a run.
#include "methods/transfers/transfer_set_method.hpp"

namespace hwcomm::cuda {

TransferSetGpuBackend transfer_set_backend();

}  // namespace hwcomm::cuda
