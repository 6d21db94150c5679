// The top floor of methods/cuda: every family's factories, in the order the
// plan measures them.
#include "methods/cuda/register.hpp"

#include "methods/cuda/concurrency/concurrency_methods.hpp"
#include "methods/cuda/copy/copy_methods.hpp"
#include "methods/cuda/faults/fault_methods.hpp"
#include "methods/cuda/load/load_methods.hpp"
#include "methods/cuda/um/um_methods.hpp"
#include "methods/cuda/zerocopy/zero_copy_methods.hpp"

namespace hwcomm {

void register_cuda_methods(Registry& registry) {
    using namespace cuda;
    registry.add(make_memcpy_h2d());
    registry.add(make_memcpy_d2h());
    registry.add(make_memcpy_h2h());
    registry.add(make_memcpy_d2d());
    registry.add(make_memcpy_peer());
    registry.add(make_duplex_d2d());
    registry.add(make_duplex_h2d());
    registry.add(make_sm_copy_d2d());
    registry.add(make_sm_copy_d2d_push());
    registry.add(make_sm_copy_h2d());
    registry.add(make_sm_copy_d2h());
    registry.add(make_tma_copy_d2d());
    registry.add(make_tma_copy_h2d());
    registry.add(make_tma_copy_d2h());
    registry.add(make_all_to_host());
    registry.add(make_host_to_all());
    registry.add(make_all_to_one());
    registry.add(make_one_to_all());
    registry.add(make_pairs_sharing_a_link());
    registry.add(make_zero_copy_read());
    registry.add(make_zero_copy_write());
    registry.add(make_um_prefetch());
    registry.add(make_um_demand());
    registry.add(make_under_load());
    registry.add(make_lane_sweep());
    registry.add(make_in_flight());
    registry.add(make_priority());
}

void register_cuda_fault_methods(Registry& registry) { cuda::register_fault_methods(registry, cuda::make_memcpy_d2d()); }

}  // namespace hwcomm
