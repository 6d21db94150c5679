#include <algorithm>
#include <bit>
#include <cstring>

#include "methods/cuda/pattern.hpp"

static_assert(std::endian::native == std::endian::little, "the pattern layout assumes a little-endian host");

namespace hwcomm::cuda {

namespace {
// Below this a single thread is quicker than waking a team. Fills and checks
// run before and after every sample, so large host buffers use every core.
constexpr std::size_t kParallelBytes = 4u << 20;
}  // namespace

void fill_pattern_host(std::byte* data, std::size_t bytes, std::uint64_t seed, bool invert) {
    const std::uint64_t flip = invert ? ~0ull : 0ull;
    const std::size_t words = bytes / 8;
#pragma omp parallel for schedule(static) if (bytes >= kParallelBytes)
    for (std::size_t w = 0; w < words; ++w) {
        const std::uint64_t v = pattern_word(w, seed) ^ flip;
        std::memcpy(data + w * 8, &v, 8);
    }
    for (std::size_t i = words * 8; i < bytes; ++i)
        data[i] = static_cast<std::byte>(pattern_byte(i, seed) ^ static_cast<std::uint8_t>(flip));
}

PatternCheck check_pattern_host(const std::byte* data, std::size_t bytes, std::uint64_t seed) {
    PatternCheck result;
    auto note = [&result](std::uint64_t index) {
        if (result.mismatches++ == 0) result.first_mismatch = index;
    };
    const std::size_t words = bytes / 8;
    std::uint64_t mismatches = 0;
    std::uint64_t first = ~0ull;
#pragma omp parallel for schedule(static) reduction(+ : mismatches) reduction(min : first) if (bytes >= kParallelBytes)
    for (std::size_t w = 0; w < words; ++w) {
        std::uint64_t v;
        std::memcpy(&v, data + w * 8, 8);
        const std::uint64_t diff = v ^ pattern_word(w, seed);
        if (diff == 0) continue;
        for (unsigned k = 0; k < 8; ++k)
            if ((diff >> (8 * k)) & 0xff) {
                ++mismatches;
                first = std::min<std::uint64_t>(first, w * 8 + k);
            }
    }
    result.mismatches = mismatches;
    if (mismatches) result.first_mismatch = first;
    for (std::size_t i = words * 8; i < bytes; ++i)
        if (static_cast<std::uint8_t>(data[i]) != pattern_byte(i, seed)) note(i);
    return result;
}

}  // namespace hwcomm::cuda
