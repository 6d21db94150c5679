#include <algorithm>
#include <atomic>
#include <bit>
#include <vector>
#include <cstring>

#include "methods/cuda/common/pattern.hpp"
#include "platform/parallel_chunks.hpp"

static_assert(std::endian::native == std::endian::little, "the pattern layout assumes a little-endian host");

namespace hwcomm::cuda {

namespace {
// Fills run before every sample on the calling thread, as an application
// writes its data before it copies it, and as the pattern was written before
// fills moved into every sample (docs/measurement-core.md has the pageable
// A/B). Checks only read after the sample, so large ones use several threads
// (started and ended with the call: no pool spinning beside the next timed
// copy).
constexpr std::size_t kParallelBytes = 4u << 20;
}  // namespace

void fill_pattern_host(std::byte* data, std::size_t bytes, std::uint64_t seed, bool invert) {
    const std::uint64_t flip = invert ? ~0ull : 0ull;
    const std::size_t words = bytes / 8;
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
    std::atomic<std::uint64_t> mismatches{0};
    std::atomic<std::uint64_t> first{~0ull};
    for_each_chunk(words, bytes >= kParallelBytes, [&](std::size_t begin, std::size_t end) {
        std::uint64_t count = 0, lowest = ~0ull;
        for (std::size_t w = begin; w < end; ++w) {
            std::uint64_t v;
            std::memcpy(&v, data + w * 8, 8);
            const std::uint64_t diff = v ^ pattern_word(w, seed);
            if (diff == 0) continue;
            for (unsigned k = 0; k < 8; ++k)
                if ((diff >> (8 * k)) & 0xff) {
                    ++count;
                    lowest = std::min<std::uint64_t>(lowest, w * 8 + k);
                }
        }
        mismatches += count;
        std::uint64_t seen = first.load();
        while (lowest < seen && !first.compare_exchange_weak(seen, lowest)) {
        }
    });
    result.mismatches = mismatches.load();
    if (mismatches) result.first_mismatch = first;
    for (std::size_t i = words * 8; i < bytes; ++i)
        if (static_cast<std::uint8_t>(data[i]) != pattern_byte(i, seed)) note(i);
    return result;
}

}  // namespace hwcomm::cuda
