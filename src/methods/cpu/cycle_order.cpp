#include "methods/cpu/cycle_order.hpp"

#include <algorithm>
#include <bit>

#include "core/error.hpp"
#include "core/mix64.hpp"

namespace hwcomm {

CycleOrder::CycleOrder(std::uint64_t n, std::uint64_t seed) : n_(n) {
    if (n == 0) throw MeasurementError("a cycle order needs at least one position");
    if (n > (std::uint64_t{1} << 62)) throw MeasurementError("a cycle order of more than 2^62 positions");
    // Both halves as wide: the domain 2^(2h) is below 4n.
    const unsigned bits = std::max(2u, static_cast<unsigned>(std::bit_width(n - 1)));
    half_bits_ = (bits + 1) / 2;
    half_mask_ = (std::uint64_t{1} << half_bits_) - 1;
    // The round keys: splitmix64's stream from the seed.
    std::uint64_t state = seed;
    for (std::uint64_t& key : keys_) key = splitmix64_next(state);
}

}  // namespace hwcomm
