#include <cstdlib>
#include <string>

#include "cli/commands.hpp"
#include "methods/cpu/register.hpp"
#include "methods/disk/register.hpp"
#ifdef HWCOMM_HAVE_CUDA
#include "methods/cuda/faults/fault_methods.hpp"
#include "methods/cuda/gpumem/gpumem_methods.hpp"
#include "methods/cuda/register.hpp"
#endif

namespace hwcomm::cli {

Registry build_registry() {
    Registry registry;
#ifdef HWCOMM_HAVE_CUDA
    // Test only (issue 16): fault-injecting methods, first in the plan, and
    // only when the GPU fault tests ask for them.
    if (const char* v = std::getenv(cuda::kFaultMethodsEnv); v && std::string(v) == "1")
        register_cuda_fault_methods(registry);
#endif
    register_cpu_methods(registry);
    register_disk_methods(registry);
#ifdef HWCOMM_HAVE_CUDA
    register_cuda_methods(registry);
    cuda::gpumem::register_gpumem_methods(registry);  // hwcomm gpumem (docs/gpumem.md)
#endif
    return registry;
}

}  // namespace hwcomm::cli
