#include "methods/cpu/pattern.hpp"

#include <omp.h>

#include <algorithm>
#include <bit>

namespace hwcomm {

namespace {

static_assert(std::endian::native == std::endian::little, "pattern_byte assumes little-endian words");

// Below this a parallel region costs more than it saves.
constexpr std::size_t kParallelBytes = std::size_t{4} << 20;

int threads_for(std::size_t bytes) { return bytes >= kParallelBytes ? omp_get_max_threads() : 1; }

// Buffers come from hwloc_alloc (page-aligned), so the words are aligned.
std::uint64_t* words_of(std::byte* data) { return reinterpret_cast<std::uint64_t*>(data); }
const std::uint64_t* words_of(const std::byte* data) { return reinterpret_cast<const std::uint64_t*>(data); }

}  // namespace

std::uint64_t fill_pattern(std::byte* data, std::size_t bytes, std::uint64_t seed) {
    const std::uint64_t mask = pattern_mask(seed);
    const std::size_t n = bytes / 8;
    std::uint64_t* w = words_of(data);
    std::uint64_t sum = 0;
#pragma omp parallel for simd num_threads(threads_for(bytes)) schedule(static) reduction(+ : sum)
    for (std::size_t i = 0; i < n; ++i) {
        w[i] = pattern_word(mask, i);
        sum += w[i];
    }
    for (std::size_t b = n * 8; b < bytes; ++b) {
        data[b] = pattern_byte(mask, b);
        sum += static_cast<std::uint64_t>(data[b]);
    }
    return sum;
}

std::size_t first_mismatch(const std::byte* data, std::size_t bytes, std::uint64_t seed) {
    const std::uint64_t mask = pattern_mask(seed);
    const std::size_t n = bytes / 8;
    const std::uint64_t* w = words_of(data);
    std::size_t first_word = n;
#pragma omp parallel for num_threads(threads_for(bytes)) schedule(static) reduction(min : first_word)
    for (std::size_t i = 0; i < n; ++i)
        if (w[i] != pattern_word(mask, i) && i < first_word) first_word = i;
    for (std::size_t b = std::min(first_word, n) * 8; b < bytes; ++b)
        if (data[b] != pattern_byte(mask, b)) return b;
    return bytes;
}

std::string pattern_mismatch(const std::byte* data, std::size_t bytes, std::uint64_t seed) {
    const std::size_t at = first_mismatch(data, bytes, seed);
    if (at == bytes) return {};
    return "destination byte " + std::to_string(at) + " of " + std::to_string(bytes) + " is not this sample's pattern";
}

void poison(std::byte* data, std::size_t bytes, std::uint64_t seed) {
    const std::uint64_t mask = pattern_mask(seed);
    const std::size_t n = bytes / 8;
    std::uint64_t* w = words_of(data);
#pragma omp parallel for simd num_threads(threads_for(bytes)) schedule(static)
    for (std::size_t i = 0; i < n; ++i) w[i] = ~pattern_word(mask, i);
    for (std::size_t b = n * 8; b < bytes; ++b) data[b] = ~pattern_byte(mask, b);
}

std::uint64_t reference_sum(const std::byte* data, std::size_t bytes) {
    const std::size_t n = bytes / 8;
    const std::uint64_t* w = words_of(data);
    std::uint64_t sum = 0;
#pragma omp parallel for simd num_threads(threads_for(bytes)) schedule(static) reduction(+ : sum)
    for (std::size_t i = 0; i < n; ++i) sum += w[i];
    for (std::size_t b = n * 8; b < bytes; ++b) sum += static_cast<std::uint64_t>(data[b]);
    return sum;
}

}  // namespace hwcomm
