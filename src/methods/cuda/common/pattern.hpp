#pragma once
// The verification pattern shared by host code and CUDA kernels. Byte i of a
// buffer filled with seed s is byte (i % 8) of pattern_word(i / 8, s), so a
// kernel or a CPU loop fills and checks eight bytes at a time. The seed changes
// with every transfer size and fill (seed_for_size), and destinations are first
// filled with the inverted pattern, so neither stale data nor an untouched
// buffer can pass the check. (Host destinations the CPU fills are poisoned once
// per session: after that they hold an earlier fill's pattern, and
// pattern_word of two seeds differs in every word since mix64 is a bijection.)
#include <cstddef>
#include <cstdint>

#include "core/mix64.hpp"  // mix64, its constants and HWCOMM_HD (__host__ __device__ under nvcc)

namespace hwcomm::cuda {

HWCOMM_HD inline std::uint64_t pattern_word(std::uint64_t word_index, std::uint64_t seed) {
    return mix64(word_index ^ mix64(seed));
}

HWCOMM_HD inline std::uint8_t pattern_byte(std::uint64_t byte_index, std::uint64_t seed) {
    return static_cast<std::uint8_t>(pattern_word(byte_index / 8, seed) >> (8 * (byte_index % 8)));
}

// A different seed for every (size, fill) of a session: `salt` counts fills.
inline std::uint64_t seed_for_size(std::size_t bytes, std::uint64_t salt) {
    return mix64(static_cast<std::uint64_t>(bytes) * 0x100000001B3ull + salt);
}

struct PatternCheck {
    std::uint64_t mismatches = 0;
    std::uint64_t first_mismatch = 0;  // byte index; meaningful when mismatches > 0
};

// CPU fill and check (little-endian hosts: byte k of a word is bits 8k..8k+7).
// `invert` writes the bitwise complement, the "nothing was copied yet" state.
void fill_pattern_host(std::byte* data, std::size_t bytes, std::uint64_t seed, bool invert);
PatternCheck check_pattern_host(const std::byte* data, std::size_t bytes, std::uint64_t seed);

}  // namespace hwcomm::cuda
