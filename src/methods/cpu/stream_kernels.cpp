#include "methods/cpu/stream_kernels.hpp"

#include <cstdint>

#include "catalog/method_params.hpp"
#include "core/error.hpp"
#include "methods/cpu/pattern.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define HWCOMM_X86 1
#endif

namespace hwcomm {

const char* to_string(KernelIsa isa) {
    switch (isa) {
    case KernelIsa::Avx512: return "avx512";
    case KernelIsa::Avx2: return "avx2";
    case KernelIsa::Sse2: return "sse2";
    case KernelIsa::Portable: return "portable";
    }
    return "unknown";
}

const char* to_string(Stores stores) { return stores == Stores::NonTemporal ? StoresParam::Nt : StoresParam::Plain; }

namespace {

// Words before the first 64-byte boundary (at most n): vector stores start on a whole line.
template <class T>
std::size_t head_words(const T* p, std::size_t n) {
    const auto misaligned = reinterpret_cast<std::uintptr_t>(p) & 63u;
    const std::size_t head = misaligned ? (64u - misaligned) / sizeof(T) : 0;
    return head < n ? head : n;
}

// ---- portable: plain loops the compiler vectorises for the build's baseline ----

std::uint64_t read_sum_portable(const std::uint64_t* p, std::size_t n) {
    std::uint64_t s[8] = {};
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8)
        for (int k = 0; k < 8; ++k) s[k] += p[i + static_cast<std::size_t>(k)];
    std::uint64_t total = 0;
    for (; i < n; ++i) total += p[i];
    for (std::uint64_t v : s) total += v;
    return total;
}

void write_pattern_portable(std::uint64_t* p, std::size_t begin, std::size_t end, std::uint64_t mask, Stores) {
    for (std::size_t i = begin; i < end; ++i) p[i] = pattern_word(mask, i);
}

void copy_portable(std::uint64_t* d, const std::uint64_t* s, std::size_t n, Stores) {
    for (std::size_t i = 0; i < n; ++i) d[i] = s[i];
}

void triad_portable(double* a, const double* b, const double* c, double scalar, std::size_t n, Stores) {
    for (std::size_t i = 0; i < n; ++i) a[i] = b[i] + scalar * c[i];
}

void sum_into_portable(std::uint64_t* a, const std::uint64_t* const* src, unsigned k, std::size_t n, Stores) {
    for (std::size_t i = 0; i < n; ++i) {
        std::uint64_t v = src[0][i];
        for (unsigned j = 1; j < k; ++j) v += src[j][i];
        a[i] = v;
    }
}

#ifdef HWCOMM_X86

// ---- SSE2: every x86-64 has it; _mm_stream_si128 for non-temporal stores ----

std::uint64_t read_sum_sse2(const std::uint64_t* p, std::size_t n) {
    std::size_t i = head_words(p, n);
    std::uint64_t total = 0;
    for (std::size_t h = 0; h < i; ++h) total += p[h];
    __m128i acc[8];
    for (auto& a : acc) a = _mm_setzero_si128();
    for (; i + 16 <= n; i += 16)
        for (int k = 0; k < 8; ++k)
            acc[k] = _mm_add_epi64(acc[k], _mm_load_si128(reinterpret_cast<const __m128i*>(p + i + 2 * k)));
    for (; i < n; ++i) total += p[i];
    alignas(16) std::uint64_t lanes[2];
    for (auto& a : acc) {
        _mm_store_si128(reinterpret_cast<__m128i*>(lanes), a);
        total += lanes[0] + lanes[1];
    }
    return total;
}

void store_sse2(void* p, __m128i v, Stores stores) {
    if (stores == Stores::NonTemporal) _mm_stream_si128(static_cast<__m128i*>(p), v);
    else _mm_store_si128(static_cast<__m128i*>(p), v);
}

void write_pattern_sse2(std::uint64_t* p, std::size_t begin, std::size_t end, std::uint64_t mask, Stores stores) {
    std::size_t i = begin + head_words(p + begin, end - begin);
    for (std::size_t h = begin; h < i; ++h) p[h] = pattern_word(mask, h);
    const __m128i m = _mm_set1_epi64x(static_cast<long long>(mask));
    const __m128i add = _mm_set1_epi64x(static_cast<long long>(kPatternAdd));
    const __m128i two = _mm_set1_epi64x(2);
    __m128i idx = _mm_set_epi64x(static_cast<long long>(i + 1), static_cast<long long>(i));
    for (; i + 2 <= end; i += 2) {
        store_sse2(p + i, _mm_add_epi64(_mm_xor_si128(idx, m), add), stores);
        idx = _mm_add_epi64(idx, two);
    }
    for (; i < end; ++i) p[i] = pattern_word(mask, i);
    if (stores == Stores::NonTemporal) _mm_sfence();
}

void copy_sse2(std::uint64_t* d, const std::uint64_t* s, std::size_t n, Stores stores) {
    std::size_t i = head_words(d, n);
    for (std::size_t h = 0; h < i; ++h) d[h] = s[h];
    for (; i + 8 <= n; i += 8)
        for (int k = 0; k < 4; ++k)
            store_sse2(d + i + 2 * k, _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i + 2 * k)), stores);
    for (; i < n; ++i) d[i] = s[i];
    if (stores == Stores::NonTemporal) _mm_sfence();
}

void triad_sse2(double* a, const double* b, const double* c, double scalar, std::size_t n, Stores stores) {
    std::size_t i = head_words(a, n);
    for (std::size_t h = 0; h < i; ++h) a[h] = b[h] + scalar * c[h];
    const __m128d q = _mm_set1_pd(scalar);
    for (; i + 2 <= n; i += 2) {
        const __m128d v = _mm_add_pd(_mm_loadu_pd(b + i), _mm_mul_pd(q, _mm_loadu_pd(c + i)));
        if (stores == Stores::NonTemporal) _mm_stream_pd(a + i, v);
        else _mm_store_pd(a + i, v);
    }
    for (; i < n; ++i) a[i] = b[i] + scalar * c[i];
    if (stores == Stores::NonTemporal) _mm_sfence();
}

void sum_into_sse2(std::uint64_t* a, const std::uint64_t* const* src, unsigned k, std::size_t n, Stores stores) {
    std::size_t i = head_words(a, n);
    for (std::size_t h = 0; h < i; ++h) {
        std::uint64_t v = src[0][h];
        for (unsigned j = 1; j < k; ++j) v += src[j][h];
        a[h] = v;
    }
    for (; i + 2 <= n; i += 2) {
        __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src[0] + i));
        for (unsigned j = 1; j < k; ++j) v = _mm_add_epi64(v, _mm_loadu_si128(reinterpret_cast<const __m128i*>(src[j] + i)));
        store_sse2(a + i, v, stores);
    }
    for (; i < n; ++i) {
        std::uint64_t v = src[0][i];
        for (unsigned j = 1; j < k; ++j) v += src[j][i];
        a[i] = v;
    }
    if (stores == Stores::NonTemporal) _mm_sfence();
}

// ---- AVX2 ----

#define HWCOMM_AVX2 __attribute__((target("avx2")))

HWCOMM_AVX2 std::uint64_t read_sum_avx2(const std::uint64_t* p, std::size_t n) {
    std::size_t i = head_words(p, n);
    std::uint64_t total = 0;
    for (std::size_t h = 0; h < i; ++h) total += p[h];
    __m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0;
    for (; i + 32 <= n; i += 32) {
        const auto* v = reinterpret_cast<const __m256i*>(p + i);
        a0 = _mm256_add_epi64(a0, _mm256_load_si256(v + 0));
        a1 = _mm256_add_epi64(a1, _mm256_load_si256(v + 1));
        a2 = _mm256_add_epi64(a2, _mm256_load_si256(v + 2));
        a3 = _mm256_add_epi64(a3, _mm256_load_si256(v + 3));
        a4 = _mm256_add_epi64(a4, _mm256_load_si256(v + 4));
        a5 = _mm256_add_epi64(a5, _mm256_load_si256(v + 5));
        a6 = _mm256_add_epi64(a6, _mm256_load_si256(v + 6));
        a7 = _mm256_add_epi64(a7, _mm256_load_si256(v + 7));
    }
    for (; i < n; ++i) total += p[i];
    const __m256i s = _mm256_add_epi64(_mm256_add_epi64(_mm256_add_epi64(a0, a1), _mm256_add_epi64(a2, a3)),
                                       _mm256_add_epi64(_mm256_add_epi64(a4, a5), _mm256_add_epi64(a6, a7)));
    alignas(32) std::uint64_t lanes[4];
    _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), s);
    return total + lanes[0] + lanes[1] + lanes[2] + lanes[3];
}

HWCOMM_AVX2 inline void store_avx2(void* p, __m256i v, Stores stores) {
    if (stores == Stores::NonTemporal) _mm256_stream_si256(static_cast<__m256i*>(p), v);
    else _mm256_store_si256(static_cast<__m256i*>(p), v);
}

HWCOMM_AVX2 void write_pattern_avx2(std::uint64_t* p, std::size_t begin, std::size_t end, std::uint64_t mask,
                                    Stores stores) {
    std::size_t i = begin + head_words(p + begin, end - begin);
    for (std::size_t h = begin; h < i; ++h) p[h] = pattern_word(mask, h);
    const __m256i m = _mm256_set1_epi64x(static_cast<long long>(mask));
    const __m256i add = _mm256_set1_epi64x(static_cast<long long>(kPatternAdd));
    const __m256i four = _mm256_set1_epi64x(4);
    __m256i idx = _mm256_set_epi64x(static_cast<long long>(i + 3), static_cast<long long>(i + 2),
                                    static_cast<long long>(i + 1), static_cast<long long>(i));
    for (; i + 4 <= end; i += 4) {
        store_avx2(p + i, _mm256_add_epi64(_mm256_xor_si256(idx, m), add), stores);
        idx = _mm256_add_epi64(idx, four);
    }
    for (; i < end; ++i) p[i] = pattern_word(mask, i);
    if (stores == Stores::NonTemporal) _mm_sfence();
}

HWCOMM_AVX2 void copy_avx2(std::uint64_t* d, const std::uint64_t* s, std::size_t n, Stores stores) {
    std::size_t i = head_words(d, n);
    for (std::size_t h = 0; h < i; ++h) d[h] = s[h];
    for (; i + 16 <= n; i += 16) {
        const auto* v = reinterpret_cast<const __m256i*>(s + i);
        const __m256i x0 = _mm256_loadu_si256(v), x1 = _mm256_loadu_si256(v + 1), x2 = _mm256_loadu_si256(v + 2),
                      x3 = _mm256_loadu_si256(v + 3);
        store_avx2(d + i, x0, stores);
        store_avx2(d + i + 4, x1, stores);
        store_avx2(d + i + 8, x2, stores);
        store_avx2(d + i + 12, x3, stores);
    }
    for (; i < n; ++i) d[i] = s[i];
    if (stores == Stores::NonTemporal) _mm_sfence();
}

HWCOMM_AVX2 void triad_avx2(double* a, const double* b, const double* c, double scalar, std::size_t n, Stores stores) {
    std::size_t i = head_words(a, n);
    for (std::size_t h = 0; h < i; ++h) a[h] = b[h] + scalar * c[h];
    const __m256d q = _mm256_set1_pd(scalar);
    for (; i + 8 <= n; i += 8)
        for (std::size_t k = 0; k < 8; k += 4) {
            const __m256d v = _mm256_add_pd(_mm256_loadu_pd(b + i + k), _mm256_mul_pd(q, _mm256_loadu_pd(c + i + k)));
            if (stores == Stores::NonTemporal) _mm256_stream_pd(a + i + k, v);
            else _mm256_store_pd(a + i + k, v);
        }
    for (; i < n; ++i) a[i] = b[i] + scalar * c[i];
    if (stores == Stores::NonTemporal) _mm_sfence();
}

HWCOMM_AVX2 void sum_into_avx2(std::uint64_t* a, const std::uint64_t* const* src, unsigned k, std::size_t n,
                               Stores stores) {
    std::size_t i = head_words(a, n);
    for (std::size_t h = 0; h < i; ++h) {
        std::uint64_t v = src[0][h];
        for (unsigned j = 1; j < k; ++j) v += src[j][h];
        a[h] = v;
    }
    for (; i + 4 <= n; i += 4) {
        __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src[0] + i));
        for (unsigned j = 1; j < k; ++j)
            v = _mm256_add_epi64(v, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src[j] + i)));
        store_avx2(a + i, v, stores);
    }
    for (; i < n; ++i) {
        std::uint64_t v = src[0][i];
        for (unsigned j = 1; j < k; ++j) v += src[j][i];
        a[i] = v;
    }
    if (stores == Stores::NonTemporal) _mm_sfence();
}

// ---- AVX-512 (foundation instructions only: every AVX-512 CPU has them) ----

#define HWCOMM_AVX512 __attribute__((target("avx512f")))

HWCOMM_AVX512 std::uint64_t read_sum_avx512(const std::uint64_t* p, std::size_t n) {
    std::size_t i = head_words(p, n);
    std::uint64_t total = 0;
    for (std::size_t h = 0; h < i; ++h) total += p[h];
    __m512i a0 = _mm512_setzero_si512(), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0;
    for (; i + 64 <= n; i += 64) {  // 8 lines per iteration, one accumulator each
        const std::uint64_t* q = p + i;
        a0 = _mm512_add_epi64(a0, _mm512_load_si512(q));
        a1 = _mm512_add_epi64(a1, _mm512_load_si512(q + 8));
        a2 = _mm512_add_epi64(a2, _mm512_load_si512(q + 16));
        a3 = _mm512_add_epi64(a3, _mm512_load_si512(q + 24));
        a4 = _mm512_add_epi64(a4, _mm512_load_si512(q + 32));
        a5 = _mm512_add_epi64(a5, _mm512_load_si512(q + 40));
        a6 = _mm512_add_epi64(a6, _mm512_load_si512(q + 48));
        a7 = _mm512_add_epi64(a7, _mm512_load_si512(q + 56));
    }
    for (; i + 8 <= n; i += 8) a0 = _mm512_add_epi64(a0, _mm512_load_si512(p + i));
    for (; i < n; ++i) total += p[i];
    const __m512i s = _mm512_add_epi64(_mm512_add_epi64(_mm512_add_epi64(a0, a1), _mm512_add_epi64(a2, a3)),
                                       _mm512_add_epi64(_mm512_add_epi64(a4, a5), _mm512_add_epi64(a6, a7)));
    alignas(64) std::uint64_t lanes[8];  // not _mm512_reduce_add_epi64: GCC 12 warns inside it
    _mm512_store_si512(lanes, s);
    for (std::uint64_t v : lanes) total += v;
    return total;
}

HWCOMM_AVX512 inline void store_avx512(void* p, __m512i v, Stores stores) {
    if (stores == Stores::NonTemporal) _mm512_stream_si512(static_cast<__m512i*>(p), v);
    else _mm512_store_si512(p, v);
}

HWCOMM_AVX512 void write_pattern_avx512(std::uint64_t* p, std::size_t begin, std::size_t end, std::uint64_t mask,
                                        Stores stores) {
    std::size_t i = begin + head_words(p + begin, end - begin);
    for (std::size_t h = begin; h < i; ++h) p[h] = pattern_word(mask, h);
    const __m512i m = _mm512_set1_epi64(static_cast<long long>(mask));
    const __m512i add = _mm512_set1_epi64(static_cast<long long>(kPatternAdd));
    const __m512i eight = _mm512_set1_epi64(8);
    __m512i idx = _mm512_add_epi64(_mm512_set1_epi64(static_cast<long long>(i)), _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0));
    for (; i + 8 <= end; i += 8) {
        store_avx512(p + i, _mm512_add_epi64(_mm512_xor_si512(idx, m), add), stores);
        idx = _mm512_add_epi64(idx, eight);
    }
    for (; i < end; ++i) p[i] = pattern_word(mask, i);
    if (stores == Stores::NonTemporal) _mm_sfence();
}

HWCOMM_AVX512 void copy_avx512(std::uint64_t* d, const std::uint64_t* s, std::size_t n, Stores stores) {
    std::size_t i = head_words(d, n);
    for (std::size_t h = 0; h < i; ++h) d[h] = s[h];
    for (; i + 32 <= n; i += 32) {
        const __m512i x0 = _mm512_loadu_si512(s + i), x1 = _mm512_loadu_si512(s + i + 8),
                      x2 = _mm512_loadu_si512(s + i + 16), x3 = _mm512_loadu_si512(s + i + 24);
        store_avx512(d + i, x0, stores);
        store_avx512(d + i + 8, x1, stores);
        store_avx512(d + i + 16, x2, stores);
        store_avx512(d + i + 24, x3, stores);
    }
    for (; i + 8 <= n; i += 8) store_avx512(d + i, _mm512_loadu_si512(s + i), stores);
    for (; i < n; ++i) d[i] = s[i];
    if (stores == Stores::NonTemporal) _mm_sfence();
}

HWCOMM_AVX512 void triad_avx512(double* a, const double* b, const double* c, double scalar, std::size_t n,
                                Stores stores) {
    std::size_t i = head_words(a, n);
    for (std::size_t h = 0; h < i; ++h) a[h] = b[h] + scalar * c[h];
    const __m512d q = _mm512_set1_pd(scalar);
    for (; i + 16 <= n; i += 16)
        for (std::size_t k = 0; k < 16; k += 8) {
            const __m512d v = _mm512_add_pd(_mm512_loadu_pd(b + i + k), _mm512_mul_pd(q, _mm512_loadu_pd(c + i + k)));
            if (stores == Stores::NonTemporal) _mm512_stream_pd(a + i + k, v);
            else _mm512_store_pd(a + i + k, v);
        }
    for (; i < n; ++i) a[i] = b[i] + scalar * c[i];
    if (stores == Stores::NonTemporal) _mm_sfence();
}

HWCOMM_AVX512 void sum_into_avx512(std::uint64_t* a, const std::uint64_t* const* src, unsigned k, std::size_t n,
                                   Stores stores) {
    std::size_t i = head_words(a, n);
    for (std::size_t h = 0; h < i; ++h) {
        std::uint64_t v = src[0][h];
        for (unsigned j = 1; j < k; ++j) v += src[j][h];
        a[h] = v;
    }
    for (; i + 8 <= n; i += 8) {
        __m512i v = _mm512_loadu_si512(src[0] + i);
        for (unsigned j = 1; j < k; ++j) v = _mm512_add_epi64(v, _mm512_loadu_si512(src[j] + i));
        store_avx512(a + i, v, stores);
    }
    for (; i < n; ++i) {
        std::uint64_t v = src[0][i];
        for (unsigned j = 1; j < k; ++j) v += src[j][i];
        a[i] = v;
    }
    if (stores == Stores::NonTemporal) _mm_sfence();
}

bool cpu_has(KernelIsa isa) {
    __builtin_cpu_init();
    switch (isa) {
    case KernelIsa::Avx512: return __builtin_cpu_supports("avx512f");
    case KernelIsa::Avx2: return __builtin_cpu_supports("avx2");
    case KernelIsa::Sse2: return true;
    case KernelIsa::Portable: return true;
    }
    return false;
}

#else

bool cpu_has(KernelIsa isa) { return isa == KernelIsa::Portable; }

#endif  // HWCOMM_X86

const StreamKernels kPortable{KernelIsa::Portable, false, read_sum_portable, write_pattern_portable, copy_portable,
                              triad_portable, sum_into_portable};
#ifdef HWCOMM_X86
const StreamKernels kSse2{KernelIsa::Sse2, true, read_sum_sse2, write_pattern_sse2, copy_sse2, triad_sse2, sum_into_sse2};
const StreamKernels kAvx2{KernelIsa::Avx2, true, read_sum_avx2, write_pattern_avx2, copy_avx2, triad_avx2, sum_into_avx2};
const StreamKernels kAvx512{KernelIsa::Avx512, true, read_sum_avx512, write_pattern_avx512, copy_avx512, triad_avx512,
                            sum_into_avx512};
#endif

const StreamKernels& table_of(KernelIsa isa) {
    switch (isa) {
#ifdef HWCOMM_X86
    case KernelIsa::Avx512: return kAvx512;
    case KernelIsa::Avx2: return kAvx2;
    case KernelIsa::Sse2: return kSse2;
#endif
    default: return kPortable;
    }
}

}  // namespace

std::vector<KernelIsa> supported_isas() {
    std::vector<KernelIsa> out;
    for (KernelIsa isa : {KernelIsa::Avx512, KernelIsa::Avx2, KernelIsa::Sse2, KernelIsa::Portable})
        if (cpu_has(isa)) out.push_back(isa);
    return out;
}

const StreamKernels& kernels_for(KernelIsa isa) {
    if (!cpu_has(isa)) throw MeasurementError(std::string("this CPU or build cannot run the ") + to_string(isa) + " loops");
    return table_of(isa);
}

const StreamKernels& best_kernels() { return table_of(supported_isas().front()); }

}  // namespace hwcomm
