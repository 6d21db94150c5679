#include "methods/cpu/register.hpp"

#include "methods/cpu/cpu_methods.hpp"

namespace hwcomm {

void register_cpu_methods(Registry& registry) {
    registry.add(make_cpu_read());
    registry.add(make_cpu_write());
    registry.add(make_cpu_memcpy());
    registry.add(make_cpu_copy());
    registry.add(make_cpu_triad());
    registry.add(make_cpu_latency());
    registry.add(make_cpu_loaded_latency());
    registry.add(make_cpu_bandwidth_mix());
}

}  // namespace hwcomm
