#pragma once
// splitmix64, defined once: the CUDA methods' verification pattern (host and
// device code, methods/cuda/common/pattern.hpp), the CPU chase's round keys
// and the cluster schedule's random partners. Plain 64-bit arithmetic, so the
// same numbers on every compiler, library and GPU. C++17: nvcc includes it.
#include <cstdint>

// Host and device functions where nvcc compiles, plain host code elsewhere.
#if !defined(HWCOMM_HD)
#if defined(__CUDACC__)
#define HWCOMM_HD __host__ __device__
#else
#define HWCOMM_HD
#endif
#endif

namespace hwcomm {

// splitmix64's constants, named once: the CUDA vector fill (pattern_host.cpp) uses them too.
inline constexpr std::uint64_t kMix64Increment = 0x9E3779B97F4A7C15ull;
inline constexpr std::uint64_t kMix64Multiplier1 = 0xBF58476D1CE4E5B9ull;
inline constexpr std::uint64_t kMix64Multiplier2 = 0x94D049BB133111EBull;

// The increment, then splitmix64's finaliser: cheap, a bijection, and every
// output bit depends on every input bit.
HWCOMM_HD constexpr std::uint64_t mix64(std::uint64_t x) {
    x += kMix64Increment;
    x = (x ^ (x >> 30)) * kMix64Multiplier1;
    x = (x ^ (x >> 27)) * kMix64Multiplier2;
    return x ^ (x >> 31);
}

// The next number of the splitmix64 generator at `state`, which advances:
// mix64 of the state before the step, as the reference generator returns.
constexpr std::uint64_t splitmix64_next(std::uint64_t& state) {
    const std::uint64_t out = mix64(state);
    state += kMix64Increment;
    return out;
}

// The reference generator's first outputs from seed 0.
static_assert(mix64(0) == 0xE220A8397B1DCDAFull && mix64(kMix64Increment) == 0x6E789E6AA1B965F4ull);

}  // namespace hwcomm
