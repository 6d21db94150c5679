// cpu-write: workers bound to the source node write an allocation on the
// destination node (8-byte words, every word).
#include <cstring>
#include <memory>
#include <vector>

#include "core/error.hpp"
#include "methods/cpu/bound_parallel.hpp"
#include "methods/cpu/cpu_methods.hpp"
#include "methods/cpu/cpu_session.hpp"
#include "methods/cpu/numa_pair_method.hpp"

namespace hwcomm {

namespace {

constexpr std::uint64_t kWordSeed = 0x5A5A0000F00Dull;

void write_words(std::uint64_t* p, std::size_t begin, std::size_t end) {
#pragma omp simd
    for (std::size_t i = begin; i < end; ++i) p[i] = kWordSeed + i;
}

class WriteSession : public CpuSession {
public:
    WriteSession(int src, int dst, std::size_t max_bytes, unsigned max_workers)
        : CpuSession(max_bytes), src_(src), buffer_(topo_, dst, max_bytes) {
        counts_ = worker_counts(topo_.cores_of_numa(src), max_workers);
        note_buffer("dst_buffer", buffer_);
        context_["workers_node"] = src;
        context_["node_cores"] = topo_.cores_of_numa(src);
    }
    std::vector<std::string> variants() const override {
        std::vector<std::string> v;
        for (unsigned c : counts_) v.push_back(std::to_string(c));
        return v;
    }
    std::string verify(std::size_t bytes, const std::string& variant) override {
        std::memset(buffer_.data(), 0, bytes);  // poison: the check must see this transfer's writes
        run_timed(bytes, variant, 1);
        const auto* w = reinterpret_cast<const std::uint64_t*>(buffer_.data());
        for (std::size_t i = 0; i < bytes / 8; ++i)
            if (w[i] != kWordSeed + i) return "word " + std::to_string(i) + " not written";
        for (std::size_t b = bytes / 8 * 8; b < bytes; ++b)
            if (buffer_.data()[b] != std::byte{0xA5}) return "byte " + std::to_string(b) + " not written";
        return {};
    }

protected:
    double run_timed(std::size_t bytes, const std::string& variant, std::size_t reps) override {
        const unsigned workers = static_cast<unsigned>(std::stoul(variant));
        auto* words = reinterpret_cast<std::uint64_t*>(buffer_.data());
        const std::size_t n = bytes / 8;
        std::byte* tail = buffer_.data() + n * 8;
        const std::size_t tail_bytes = bytes - n * 8;
        BoundRun run = run_bound_parallel(topo_, src_, workers, reps, [&](unsigned rank, unsigned team) {
            auto [b, e] = chunk_of(n, rank, team);
            write_words(words, b, e);
            if (rank == 0)
                for (std::size_t i = 0; i < tail_bytes; ++i) tail[i] = std::byte{0xA5};
        });
        note_binding(run.unbound_workers, run.note);
        return run.seconds;
    }

private:
    int src_;
    NumaBuffer buffer_;
    std::vector<unsigned> counts_;
};

class CpuWrite : public NumaPairMethod {
public:
    std::string name() const override { return "cpu-write"; }
    std::string description() const override {
        return "threads bound to the source node write a buffer on the destination node (8-byte words); "
               "worker count swept 1..cores, best reported";
    }
    std::unique_ptr<TransferSession> prepare(const Graph&, const Vertex& src, const Vertex& dst, const ParamSet&,
                                             std::size_t max_bytes, const MethodOptions& options) const override {
        return std::make_unique<WriteSession>(numa_index_of(src), numa_index_of(dst), max_bytes, options.max_workers);
    }

protected:
    CpuEnd cpu_end() const override { return CpuEnd::Src; }
};

}  // namespace

std::unique_ptr<Characterizer> make_cpu_write() { return std::make_unique<CpuWrite>(); }

}  // namespace hwcomm
