#include "methods/cpu/pattern.hpp"

#include <bit>
#include <vector>

#include "platform/parallel_chunks.hpp"

namespace hwcomm {

namespace {

static_assert(std::endian::native == std::endian::little, "pattern_byte assumes little-endian words");

// Buffers come from hwloc_alloc (page-aligned), so the words are aligned.
std::uint64_t* words_of(std::byte* data) { return reinterpret_cast<std::uint64_t*>(data); }
const std::uint64_t* words_of(const std::byte* data) { return reinterpret_cast<const std::uint64_t*>(data); }

// How many i in [0, n) have bit j set: whole periods of 2^(j+1) hold 2^j
// each, the partial period the part of it above 2^j.
std::uint64_t indices_with_bit(std::uint64_t n, unsigned j) {
    const std::uint64_t half = std::uint64_t{1} << j;
    if (j == 63) return n > half ? n - half : 0;  // a period of 2^64: only the partial one
    const std::uint64_t period = half << 1;
    const std::uint64_t rest = n % period;
    return n / period * half + (rest > half ? rest - half : 0);
}

}  // namespace

std::uint64_t pattern_sum(std::uint64_t seed, std::uint64_t begin, std::uint64_t end) {
    if (end <= begin) return 0;
    const std::uint64_t mask = pattern_mask(seed);
    const std::uint64_t count = end - begin;
    // Word i is (i ^ mask) + K: the sum is count * K plus, per bit, 2^bit times
    // how many (i ^ mask) of the range have it set (modulo 2^64 throughout).
    std::uint64_t sum = count * kPatternAdd;
    for (unsigned j = 0; j < 64; ++j) {
        const std::uint64_t set = indices_with_bit(end, j) - indices_with_bit(begin, j);
        const std::uint64_t ones = (mask >> j) & 1 ? count - set : set;
        sum += ones << j;
    }
    return sum;
}

std::uint64_t fill_pattern(std::byte* data, std::size_t bytes, std::uint64_t seed, Stores stores, const ChunkTeam* team) {
    const std::uint64_t mask = pattern_mask(seed);
    const std::size_t n = bytes / 8;
    std::uint64_t* w = words_of(data);
    const bool parallel = bytes >= kParallelFillBytes;
    std::uint64_t sum = 0;
    if (stores == Stores::NonTemporal) {
        const auto write = best_kernels().write_pattern;
        for_each_chunk(
            n, parallel, [&](std::size_t begin, std::size_t end) { write(w, begin, end, mask, stores); }, team);
        sum = pattern_sum(seed, 0, n);
    } else {
        std::vector<std::uint64_t> sums(chunk_count(parallel, team), 0);
        for_each_chunk(n, parallel, [&](std::size_t begin, std::size_t end, unsigned chunk) {
            std::uint64_t part = 0;
            for (std::size_t i = begin; i < end; ++i) {
                w[i] = pattern_word(mask, i);
                part += w[i];
            }
            sums[chunk] = part;
        }, team);
        for (std::uint64_t s : sums) sum += s;
    }
    for (std::size_t b = n * 8; b < bytes; ++b) {
        data[b] = pattern_byte(mask, b);
        sum += static_cast<std::uint64_t>(data[b]);
    }
    return sum;
}

std::size_t first_mismatch(const std::byte* data, std::size_t bytes, std::uint64_t seed, const ChunkTeam* team) {
    const std::uint64_t mask = pattern_mask(seed);
    const std::size_t n = bytes / 8;
    const std::uint64_t* w = words_of(data);
    const std::size_t first_word =
        first_failing(n, bytes >= kParallelFillBytes, [&](std::size_t i) { return w[i] != pattern_word(mask, i); }, team);
    for (std::size_t b = first_word * 8; b < bytes; ++b)
        if (data[b] != pattern_byte(mask, b)) return b;
    return bytes;
}

std::string pattern_mismatch(const std::byte* data, std::size_t bytes, std::uint64_t seed, const ChunkTeam* team) {
    const std::size_t at = first_mismatch(data, bytes, seed, team);
    if (at == bytes) return {};
    return "destination byte " + std::to_string(at) + " of " + std::to_string(bytes) + " is not this sample's pattern";
}

void poison(std::byte* data, std::size_t bytes, std::uint64_t seed, const ChunkTeam* team) {
    const std::uint64_t mask = pattern_mask(seed);
    const std::size_t n = bytes / 8;
    std::uint64_t* w = words_of(data);
    for_each_chunk(n, bytes >= kParallelFillBytes, [&](std::size_t begin, std::size_t end, unsigned) {
        for (std::size_t i = begin; i < end; ++i) w[i] = ~pattern_word(mask, i);
    }, team);
    for (std::size_t b = n * 8; b < bytes; ++b) data[b] = ~pattern_byte(mask, b);
}

std::uint64_t reference_sum(const std::byte* data, std::size_t bytes, const ChunkTeam* team) {
    const std::size_t n = bytes / 8;
    const std::uint64_t* w = words_of(data);
    const bool parallel = bytes >= kParallelFillBytes;
    std::vector<std::uint64_t> sums(chunk_count(parallel, team), 0);
    for_each_chunk(n, parallel, [&](std::size_t begin, std::size_t end, unsigned chunk) {
        std::uint64_t sum = 0;
        for (std::size_t i = begin; i < end; ++i) sum += w[i];
        sums[chunk] = sum;
    }, team);
    std::uint64_t sum = 0;
    for (std::uint64_t s : sums) sum += s;
    for (std::size_t b = n * 8; b < bytes; ++b) sum += static_cast<std::uint64_t>(data[b]);
    return sum;
}

}  // namespace hwcomm
