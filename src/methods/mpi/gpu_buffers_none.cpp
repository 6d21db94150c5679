// Builds without CUDA: mpi-gpu records become errors naming why.
#include "core/error.hpp"
#include "methods/mpi/transfer_buffers.hpp"

namespace hwcomm {

std::unique_ptr<TransferBuffers> make_gpu_buffers(int, std::size_t, bool) {
    throw MeasurementError("this build has no CUDA methods (configured without CUDA)");
}

}  // namespace hwcomm
