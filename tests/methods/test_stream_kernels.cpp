// Every loop path this CPU can run (AVX-512, AVX2, SSE2, portable) against a
// plain scalar reference, at sizes and offsets that exercise the unaligned
// head, the vector body and the tail, with plain and non-temporal stores.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <vector>

#include "methods/cpu/pattern.hpp"
#include "methods/cpu/stream_kernels.hpp"

using namespace hwcomm;

namespace {

struct Aligned {
    explicit Aligned(std::size_t words) : p(static_cast<std::uint64_t*>(std::aligned_alloc(64, (words * 8 + 63) / 64 * 64))) {}
    ~Aligned() { std::free(p); }
    std::uint64_t* p;
};

const std::size_t kSizes[] = {0, 1, 7, 8, 9, 63, 64, 65, 200, 1000, 4099};
const std::size_t kOffsets[] = {0, 1, 3, 8};

}  // namespace

TEST(StreamKernels, TheBestPathIsTheFirstSupportedAndPortableIsAlwaysThere) {
    const auto isas = supported_isas();
    ASSERT_FALSE(isas.empty());
    EXPECT_EQ(best_kernels().isa, isas.front());
    EXPECT_EQ(isas.back(), KernelIsa::Portable);
}

TEST(StreamKernels, EveryPathComputesWhatTheScalarLoopDoes) {
    for (KernelIsa isa : supported_isas()) {
        const StreamKernels& k = kernels_for(isa);
        EXPECT_EQ(k.isa, isa);
        for (std::size_t n : kSizes)
            for (std::size_t off : kOffsets) {
                const std::size_t total = n + off + 8;
                Aligned a(total), b(total), c(total), d(total);
                const std::uint64_t mask = pattern_mask(n * 31 + off);
                std::uint64_t expected_sum = 0;
                for (std::size_t i = 0; i < total; ++i) {
                    b.p[i] = pattern_word(mask, i);
                    c.p[i] = pattern_word(~mask, i);
                }
                for (std::size_t i = 0; i < n; ++i) expected_sum += b.p[off + i];
                EXPECT_EQ(k.read_sum(b.p + off, n), expected_sum) << to_string(isa) << " n=" << n << " off=" << off;
                for (Stores stores : {Stores::Plain, Stores::NonTemporal}) {
                    const std::string what = std::string(to_string(isa)) + " " + to_string(stores) +
                                             " n=" + std::to_string(n) + " off=" + std::to_string(off);
                    for (std::size_t i = 0; i < total; ++i) a.p[i] = d.p[i] = 0xAAAAAAAAAAAAAAAAull;
                    k.write_pattern(a.p, off, off + n, mask, stores);
                    k.copy(d.p + off, b.p + off, n, stores);
                    for (std::size_t i = 0; i < total; ++i) {
                        const bool inside = i >= off && i < off + n;
                        ASSERT_EQ(a.p[i], inside ? pattern_word(mask, i) : 0xAAAAAAAAAAAAAAAAull) << what << " write i=" << i;
                        ASSERT_EQ(d.p[i], inside ? b.p[i] : 0xAAAAAAAAAAAAAAAAull) << what << " copy i=" << i;
                    }
                    for (unsigned reads = 1; reads <= 3; ++reads) {
                        const std::uint64_t* src[3] = {b.p + off, c.p + off, b.p + off + 1};
                        k.sum_into(d.p + off, src, reads, n, stores);
                        for (std::size_t i = 0; i < n; ++i) {
                            std::uint64_t v = 0;
                            for (unsigned j = 0; j < reads; ++j) v += src[j][i];
                            ASSERT_EQ(d.p[off + i], v) << what << " sum_into k=" << reads << " i=" << i;
                        }
                    }
                    std::vector<double> x(total + 8), y(total + 8);
                    Aligned z(total);
                    for (std::size_t i = 0; i < total; ++i) {
                        x[i] = static_cast<double>(i % 1000);
                        y[i] = static_cast<double>((i * 7) % 1000);
                    }
                    auto* zd = reinterpret_cast<double*>(z.p);
                    k.triad(zd + off, x.data() + off, y.data() + off, 3.0, n, stores);
                    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(zd[off + i], x[off + i] + 3.0 * y[off + i]) << what << " triad";
                }
            }
    }
}

TEST(StreamKernels, NonTemporalStoresAreRealOnX86AndSaidPlainElsewhere) {
    for (KernelIsa isa : supported_isas())
        EXPECT_EQ(kernels_for(isa).nt_stores, isa != KernelIsa::Portable) << to_string(isa);
}
