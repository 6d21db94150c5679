#include <cstdlib>
#include <string>

#include "cli/commands.hpp"
#include "methods/built_methods.hpp"
#ifdef HWCOMM_HAVE_CUDA
#include "methods/cuda/faults/fault_methods.hpp"
#endif

namespace hwcomm::cli {

Registry build_registry() {
    Registry registry;
    bool faults = false;
#ifdef HWCOMM_HAVE_CUDA
    // Test only (issue 16): the GPU fault tests ask for the fault methods.
    const char* v = std::getenv(cuda::kFaultMethodsEnv);
    faults = v && std::string(v) == "1";
#endif
    register_built_methods(registry, faults);
    return registry;
}

}  // namespace hwcomm::cli
