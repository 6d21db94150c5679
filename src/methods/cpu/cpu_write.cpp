// cpu-write: workers bound to cores of the source node write an allocation on
// the destination node (8-byte words, every word). Each sample writes its own
// pattern (the seed reset() chose), so verify() sees the timed batch's writes.
#include <memory>
#include <vector>

#include "core/error.hpp"
#include "methods/cpu/bound_parallel.hpp"
#include "methods/cpu/cpu_methods.hpp"
#include "methods/cpu/cpu_session.hpp"
#include "methods/cpu/numa_pair_method.hpp"
#include "methods/cpu/pattern.hpp"

namespace hwcomm {

namespace {

void write_words(std::uint64_t* p, std::size_t begin, std::size_t end, std::uint64_t mask) {
#pragma omp simd
    for (std::size_t i = begin; i < end; ++i) p[i] = pattern_word(mask, i);
}

class WriteSession : public CpuSession {
public:
    WriteSession(int src, int dst, std::size_t max_bytes, const MethodOptions& options)
        : CpuSession(max_bytes, src, options.values.flag("smt")), buffer_(topo_, dst, max_bytes) {
        sweep_worker_counts(options.max_workers);
        note_buffer("dst_buffer", buffer_);
    }
    std::string verify(std::size_t bytes, const std::string&) override {
        return pattern_mismatch(buffer_.data(), bytes, seed());
    }

protected:
    void write_pattern(std::size_t bytes, std::uint64_t seed) override { poison(buffer_.data(), bytes, seed); }
    double run_timed(std::size_t bytes, const std::string& variant, std::size_t reps) override {
        const unsigned workers = static_cast<unsigned>(std::stoul(variant));
        auto* words = reinterpret_cast<std::uint64_t*>(buffer_.data());
        const std::size_t n = bytes / 8;
        const std::uint64_t mask = pattern_mask(seed());
        return run_workers(workers, reps, [&](unsigned rank, unsigned team) {
            auto [b, e] = chunk_of(n, rank, team);
            write_words(words, b, e, mask);
            if (rank == 0)
                for (std::size_t i = n * 8; i < bytes; ++i) buffer_.data()[i] = pattern_byte(mask, i);
        });
    }

private:
    NumaBuffer buffer_;
};

}  // namespace

std::unique_ptr<Characterizer> make_cpu_write() {
    return make_plain_numa_pair_method<WriteSession>(
        "cpu-write",
        "threads bound to cores of the source node write a buffer on the destination node (8-byte words); "
        "worker count swept 1..cores (..PUs with --smt), best reported",
        NumaPairMethod::CpuEnd::Src);
}

}  // namespace hwcomm
