// cpu-read: workers bound to the destination node read an allocation on the
// source node (8-byte words, every word), summing into a sink kept in memory.
#include <memory>
#include <vector>

#include "core/error.hpp"
#include "methods/cpu/bound_parallel.hpp"
#include "methods/cpu/cpu_methods.hpp"
#include "methods/cpu/cpu_session.hpp"
#include "methods/cpu/numa_pair_method.hpp"

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
    ReadSession(int src, int dst, std::size_t max_bytes, unsigned max_workers)
        : CpuSession(max_bytes), dst_(dst), buffer_(topo_, src, max_bytes) {
        fill_pattern(buffer_.data(), buffer_.size());
        counts_ = worker_counts(topo_.cores_of_numa(dst), max_workers);
        note_buffer("src_buffer", buffer_);
        context_["workers_node"] = dst;
        context_["node_cores"] = topo_.cores_of_numa(dst);
    }
    std::vector<std::string> variants() const override {
        std::vector<std::string> v;
        for (unsigned c : counts_) v.push_back(std::to_string(c));
        return v;
    }
    std::string verify(std::size_t bytes, const std::string& variant) override {
        sink_ = 0;
        run_timed(bytes, variant, 1);
        const std::uint64_t expected = reference_sum(buffer_.data(), bytes);
        if (sink_ != expected)
            return "sink " + std::to_string(sink_) + " != expected sum " + std::to_string(expected);
        return {};
    }

protected:
    double run_timed(std::size_t bytes, const std::string& variant, std::size_t reps) override {
        const unsigned workers = static_cast<unsigned>(std::stoul(variant));
        partial_.assign(workers, PaddedSum{});
        const auto* words = reinterpret_cast<const std::uint64_t*>(buffer_.data());
        const std::size_t n = bytes / 8;
        const std::byte* tail = buffer_.data() + n * 8;
        const std::size_t tail_bytes = bytes - n * 8;
        BoundRun run = run_bound_parallel(topo_, dst_, workers, reps, [&](unsigned rank, unsigned team) {
            auto [b, e] = chunk_of(n, rank, team);
            std::uint64_t s = sum_words(words + b, e - b);
            if (rank == 0)
                for (std::size_t i = 0; i < tail_bytes; ++i) s += static_cast<std::uint64_t>(tail[i]);
            partial_[rank].value = s;
        });
        note_binding(run.unbound_workers, run.note);
        std::uint64_t total = 0;
        for (const auto& p : partial_) total += p.value;
        sink_ = total;
        return run.seconds;
    }

private:
    int dst_;
    NumaBuffer buffer_;
    std::vector<unsigned> counts_;
    std::vector<PaddedSum> partial_;
    std::uint64_t sink_ = 0;
};

class CpuRead : public NumaPairMethod {
public:
    std::string name() const override { return "cpu-read"; }
    std::string description() const override {
        return "threads bound to the destination node read a buffer on the source node (8-byte words); "
               "worker count swept 1..cores, best reported";
    }
    std::unique_ptr<TransferSession> prepare(const Graph&, const Vertex& src, const Vertex& dst, const ParamSet&,
                                             std::size_t max_bytes, const MethodOptions& options) const override {
        return std::make_unique<ReadSession>(numa_index_of(src), numa_index_of(dst), max_bytes, options.max_workers);
    }

protected:
    CpuEnd cpu_end() const override { return CpuEnd::Dst; }
};

}  // namespace

std::unique_ptr<Characterizer> make_cpu_read() { return std::make_unique<CpuRead>(); }

}  // namespace hwcomm
