#include "methods/cpu/register.hpp"

#include "methods/cpu/cpu_methods.hpp"

namespace hwcomm {

void register_cpu_methods(Registry& registry) {
    registry.add(make_cpu_read());
    registry.add(make_cpu_write());
    registry.add(make_cpu_memcpy());
}

}  // namespace hwcomm
