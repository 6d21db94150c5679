#include "cli/commands.hpp"
#include "methods/cpu/register.hpp"
#include "methods/disk/register.hpp"
#ifdef HWCOMM_HAVE_CUDA
#include "methods/cuda/register.hpp"
#include "methods/cuda/gpumem/gpumem_methods.hpp"
#endif

namespace hwcomm::cli {

Registry build_registry() {
    Registry registry;
    register_cpu_methods(registry);
    register_disk_methods(registry);
#ifdef HWCOMM_HAVE_CUDA
    register_cuda_methods(registry);
    cuda::gpumem::register_gpumem_methods(registry);  // hwcomm gpumem (docs/gpumem.md)
#endif
    return registry;
}

}  // namespace hwcomm::cli
