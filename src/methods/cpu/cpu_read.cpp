// cpu-read: workers bound to cores of the destination node read an
// allocation on the source node (8-byte words, every word), summing into a
// sink kept in memory; verify() compares the timed batch's sum with the sum
// of the pattern reset() wrote.
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

struct alignas(64) PaddedSum {
    std::uint64_t value = 0;
};

std::uint64_t sum_words(const std::uint64_t* p, std::size_t n) {
    std::uint64_t s = 0;
#pragma omp simd reduction(+ : s)
    for (std::size_t i = 0; i < n; ++i) s += p[i];
    return s;
}

class ReadSession : public CpuSession {
public:
    ReadSession(int src, int dst, std::size_t max_bytes, const MethodOptions& options)
        : CpuSession(max_bytes, dst, options.values.flag("smt")), buffer_(topo_, src, max_bytes) {
        fill_pattern(buffer_.data(), buffer_.size(), seed());
        sweep_worker_counts(options.max_workers);
        note_buffer("src_buffer", buffer_);
    }
    std::string verify(std::size_t bytes, const std::string&) override {
        // Without a reset at this size the buffer still holds the pattern of construction.
        const std::uint64_t expected = expected_bytes_ == bytes ? expected_sum_ : reference_sum(buffer_.data(), bytes);
        if (sink_ != expected)
            return "the timed reads summed " + std::to_string(sink_) + ", the pattern sums to " + std::to_string(expected);
        return {};
    }

protected:
    void write_pattern(std::size_t bytes, std::uint64_t seed) override {
        expected_sum_ = fill_pattern(buffer_.data(), bytes, seed);
        expected_bytes_ = bytes;
        sink_ = ~expected_sum_;  // poison: only a batch that read every byte restores it
    }
    double run_timed(std::size_t bytes, const std::string& variant, std::size_t reps) override {
        const unsigned workers = static_cast<unsigned>(std::stoul(variant));
        partial_.assign(workers, PaddedSum{});
        const auto* words = reinterpret_cast<const std::uint64_t*>(buffer_.data());
        const std::size_t n = bytes / 8;
        const std::byte* tail = buffer_.data() + n * 8;
        const std::size_t tail_bytes = bytes - n * 8;
        const double seconds = run_workers(workers, reps, [&](unsigned rank, unsigned team) {
            auto [b, e] = chunk_of(n, rank, team);
            std::uint64_t s = sum_words(words + b, e - b);
            if (rank == 0)
                for (std::size_t i = 0; i < tail_bytes; ++i) s += static_cast<std::uint64_t>(tail[i]);
            partial_[rank].value = s;
        });
        std::uint64_t total = 0;
        for (const auto& p : partial_) total += p.value;
        sink_ = total;
        return seconds;
    }

private:
    NumaBuffer buffer_;
    std::vector<PaddedSum> partial_;
    std::uint64_t sink_ = 0;
    std::uint64_t expected_sum_ = 0;
    std::size_t expected_bytes_ = static_cast<std::size_t>(-1);  // none until the first reset
};

}  // namespace

std::unique_ptr<Characterizer> make_cpu_read() {
    return make_plain_numa_pair_method<ReadSession>(
        "cpu-read",
        "threads bound to cores of the destination node read a buffer on the source node (8-byte words); "
        "worker count swept 1..cores (..PUs with --smt), best reported",
        NumaPairMethod::CpuEnd::Dst);
}

}  // namespace hwcomm
