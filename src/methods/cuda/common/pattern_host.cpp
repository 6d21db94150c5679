#include <algorithm>
#include <atomic>
#include <bit>
#include <vector>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

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

#if defined(__x86_64__)
bool has_avx512dq() {
    static const bool yes = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
    return yes;
}

// pattern_word of the 8 words `index` names: mix64(w ^ key), `key` = mix64(seed)
// in every lane (mix64 needs 64-bit multiplies: AVX-512DQ). Zero-masked
// shifts: GCC 12 warns that _mm512_srli_epi64's undefined source may be used.
__attribute__((target("avx512f,avx512dq"), always_inline)) inline __m512i pattern_words_avx512(__m512i index,
                                                                                              __m512i key) {
    __m512i x = _mm512_add_epi64(_mm512_xor_si512(index, key),
                                 _mm512_set1_epi64(static_cast<long long>(kMix64Increment)));
    x = _mm512_mullo_epi64(_mm512_xor_si512(x, _mm512_maskz_srli_epi64(0xFF, x, 30)),
                           _mm512_set1_epi64(static_cast<long long>(kMix64Multiplier1)));
    x = _mm512_mullo_epi64(_mm512_xor_si512(x, _mm512_maskz_srli_epi64(0xFF, x, 27)),
                           _mm512_set1_epi64(static_cast<long long>(kMix64Multiplier2)));
    return _mm512_xor_si512(x, _mm512_maskz_srli_epi64(0xFF, x, 31));
}

// Words [0, words) 8 at a time; returns the first word after the whole blocks.
// The same values by the same thread and the same plain stores, so the cache
// holds what the scalar loop leaves; 2-4x faster on a Zen 4 core, and the fill
// of a pageable source was most of a pageable copy's untimed work per sample.
__attribute__((target("avx512f,avx512dq"))) std::size_t fill_words_avx512(std::byte* data, std::size_t words,
                                                                          std::uint64_t seed, std::uint64_t flip) {
    const __m512i key = _mm512_set1_epi64(static_cast<long long>(mix64(seed)));
    const __m512i flip8 = _mm512_set1_epi64(static_cast<long long>(flip));
    const __m512i eight = _mm512_set1_epi64(8);
    __m512i index = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
    std::size_t w = 0;
    for (; w + 8 <= words; w += 8) {
        _mm512_storeu_si512(data + w * 8, _mm512_xor_si512(pattern_words_avx512(index, key), flip8));
        index = _mm512_add_epi64(index, eight);
    }
    return w;
}

// The check's counterpart: words [begin, end) against the pattern, 8 at a
// time; returns the first word of the first block of 8 that differs (the
// scalar loop counts from there), or the first word after the whole blocks.
// Checks of large host destinations ran scalar on every core: mix64's two
// multiplies per word made a 1 GiB check compute-bound (64-72 ms on the dev VM's
// two cores, 19-26 ms vectorised).
__attribute__((target("avx512f,avx512dq"))) std::size_t check_words_avx512(const std::byte* data, std::size_t begin,
                                                                           std::size_t end, std::uint64_t seed) {
    const __m512i key = _mm512_set1_epi64(static_cast<long long>(mix64(seed)));
    const __m512i eight = _mm512_set1_epi64(8);
    __m512i index = _mm512_add_epi64(_mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0),
                                     _mm512_set1_epi64(static_cast<long long>(begin)));
    std::size_t w = begin;
    for (; w + 8 <= end; w += 8) {
        if (_mm512_cmpneq_epi64_mask(_mm512_loadu_si512(data + w * 8), pattern_words_avx512(index, key)) != 0) return w;
        index = _mm512_add_epi64(index, eight);
    }
    return w;
}
#endif

}  // namespace

void fill_pattern_host(std::byte* data, std::size_t bytes, std::uint64_t seed, bool invert) {
    const std::uint64_t flip = invert ? ~0ull : 0ull;
    const std::size_t words = bytes / 8;
    std::size_t w = 0;
#if defined(__x86_64__)
    if (has_avx512dq()) w = fill_words_avx512(data, words, seed, flip);
#endif
    for (; w < words; ++w) {
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
        std::size_t from = begin;
#if defined(__x86_64__)
        // Whole blocks that match are skipped; from the first that does not
        // the scalar loop counts every differing byte, as before.
        if (has_avx512dq()) from = check_words_avx512(data, begin, end, seed);
#endif
        for (std::size_t w = from; w < end; ++w) {
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
