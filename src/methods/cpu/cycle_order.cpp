#include "methods/cpu/cycle_order.hpp"

#include <algorithm>
#include <bit>

#include "core/error.hpp"

namespace hwcomm {

namespace {

// splitmix64: the round keys from the seed.
std::uint64_t next_random(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

}  // namespace

CycleOrder::CycleOrder(std::uint64_t n, std::uint64_t seed) : n_(n) {
    if (n == 0) throw MeasurementError("a cycle order needs at least one position");
    if (n > (std::uint64_t{1} << 62)) throw MeasurementError("a cycle order of more than 2^62 positions");
    // Both halves as wide: the domain 2^(2h) is below 4n.
    const unsigned bits = std::max(2u, static_cast<unsigned>(std::bit_width(n - 1)));
    half_bits_ = (bits + 1) / 2;
    half_mask_ = (std::uint64_t{1} << half_bits_) - 1;
    std::uint64_t state = seed;
    for (std::uint64_t& key : keys_) key = next_random(state);
}

}  // namespace hwcomm
