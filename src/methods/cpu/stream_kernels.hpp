#pragma once
// The inner loops of the CPU bandwidth methods, as STREAM and Intel MLC run
// them: read (loads only), write, copy and triad, with plain or non-temporal
// stores. The binary is built once for any x86-64; each loop exists as an
// AVX-512, an AVX2 and a baseline (SSE2) version, and the session takes the
// best one the running CPU supports (recorded in its context). Other
// architectures get one portable loop, and their "non-temporal" stores are
// plain (recorded too).
//
// Every loop works on one worker's contiguous chunk of 8-byte words. Loops
// that store non-temporally end with a store fence, so the bytes are globally
// visible when the worker reaches the batch's closing barrier.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hwcomm {

enum class KernelIsa { Avx512, Avx2, Sse2, Portable };
const char* to_string(KernelIsa isa);

enum class Stores { Plain, NonTemporal };
const char* to_string(Stores stores);

struct StreamKernels {
    KernelIsa isa = KernelIsa::Portable;
    bool nt_stores = false;  // whether Stores::NonTemporal really bypasses the caches on this path
    // Sum of p[0, n) modulo 2^64, with enough independent accumulators to keep
    // many cache lines in flight per core.
    std::uint64_t (*read_sum)(const std::uint64_t* p, std::size_t n) = nullptr;
    // p[i] = pattern_word(mask, i) for i in [begin, end) (methods/cpu/pattern.hpp).
    void (*write_pattern)(std::uint64_t* p, std::size_t begin, std::size_t end, std::uint64_t mask, Stores stores) = nullptr;
    // d[0, n) = s[0, n).
    void (*copy)(std::uint64_t* d, const std::uint64_t* s, std::size_t n, Stores stores) = nullptr;
    // a[i] = b[i] + scalar * c[i] for i in [0, n), STREAM's triad.
    void (*triad)(double* a, const double* b, const double* c, double scalar, std::size_t n, Stores stores) = nullptr;
    // a[i] = b0[i] + b1[i] + ... (k sources, 1 <= k <= 3) modulo 2^64: k reads per write (the read/write mixes).
    void (*sum_into)(std::uint64_t* a, const std::uint64_t* const* sources, unsigned k, std::size_t n, Stores stores) = nullptr;
};

// The best loops the running CPU supports.
const StreamKernels& best_kernels();
// The loops of one ISA; throws MeasurementError when the running CPU (or this
// build's architecture) does not support it. Tests check every path they can run.
const StreamKernels& kernels_for(KernelIsa isa);
// The ISAs whose loops this CPU can run, best first.
std::vector<KernelIsa> supported_isas();

}  // namespace hwcomm
