#include "methods/built_methods.hpp"

#include "methods/cpu/register.hpp"
#include "methods/disk/register.hpp"
#include "methods/transfers/transfer_set_method.hpp"
#ifdef HWCOMM_HAVE_CUDA
#include "methods/cuda/faults/fault_methods.hpp"
#include "methods/cuda/gpumem/gpumem_methods.hpp"
#include "methods/cuda/register.hpp"
#include "methods/cuda/transfers/transfer_set_gpu.hpp"
#endif

namespace hwcomm {

void register_built_methods(Registry& registry, bool with_test_fault_methods) {
#ifdef HWCOMM_HAVE_CUDA
    // Test only (issue 16): fault-injecting methods, first in the plan.
    if (with_test_fault_methods) register_cuda_fault_methods(registry);
#else
    (void)with_test_fault_methods;
#endif
    register_cpu_methods(registry);
    register_disk_methods(registry);
#ifdef HWCOMM_HAVE_CUDA
    register_cuda_methods(registry);
    cuda::gpumem::register_gpumem_methods(registry);  // hwcomm gpumem (docs/gpumem.md)
    registry.add(std::make_unique<TransferSetMethod>(cuda::transfer_set_backend()));
#else
    registry.add(std::make_unique<TransferSetMethod>());  // sets of CPU lanes only
#endif
}

}  // namespace hwcomm
