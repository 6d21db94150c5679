// cpu-read: workers bound to cores of the destination node read an
// allocation on the source node with loads only (vector loads, eight
// independent sums per worker so that many lines are in flight), each worker
// its own contiguous chunk. verify() compares the timed batch's sum with the
// sum of the pattern reset() wrote.
#include <memory>
#include <vector>

#include "catalog/method_names.hpp"
#include "core/error.hpp"
#include "methods/cpu/bound_parallel.hpp"
#include "methods/cpu/cpu_methods.hpp"
#include "methods/cpu/cpu_session.hpp"
#include "methods/cpu/numa_pair_method.hpp"
#include "methods/cpu/pattern.hpp"

namespace hwcomm {

namespace {

class ReadSession : public CpuSession {
public:
    ReadSession(int src, int dst, std::size_t max_bytes, const MethodOptions& options)
        : CpuSession(max_bytes, dst, options.values.flag("smt")),
          buffer_(topo_, src, max_bytes, BufferOptions{.touch_later = true}) {
        sweep_worker_counts(options.max_workers);
        first_touch(buffer_);
        fill_pattern(buffer_.data(), buffer_.size(), seed(), Stores::Plain, untimed_team());
        note_buffer("src_buffer", buffer_);
        note_byte_convention({"each byte read once (loads only)", "", 0});
    }
    std::string verify(std::size_t bytes, const std::string&) override {
        // Without a reset at this size the buffer still holds the pattern of construction.
        const std::uint64_t expected = expected_bytes_ == bytes ? expected_sum_ : reference_sum(buffer_.data(), bytes, untimed_team());
        if (sink_ != expected)
            return "the timed reads summed " + std::to_string(sink_) + ", the pattern sums to " + std::to_string(expected);
        return {};
    }

protected:
    void write_pattern(std::size_t bytes, std::uint64_t seed) override {
        expected_sum_ = fill_pattern(buffer_.data(), bytes, seed, fill_stores(bytes), untimed_team());
        expected_bytes_ = bytes;
        sink_ = ~expected_sum_;  // poison: only a batch that read every byte restores it
    }
    double run_timed(std::size_t bytes, const std::string& variant, std::size_t reps) override {
        const unsigned workers = static_cast<unsigned>(std::stoul(variant));
        partial_.assign(workers, PaddedSum{});
        const std::byte* data = buffer_.data();
        const std::size_t whole = bytes / 8 * 8;
        const auto read_sum = kernels().read_sum;
        const double seconds = run_workers(workers, reps, [&](unsigned rank, unsigned team) {
            const auto [b, e] = line_chunk(bytes, rank, team);
            const std::size_t words_end = std::min(e, whole);
            std::uint64_t s = 0;
            if (words_end > b) s = read_sum(reinterpret_cast<const std::uint64_t*>(data + b), (words_end - b) / 8);
            for (std::size_t i = std::max(b, whole); i < e; ++i) s += static_cast<std::uint64_t>(data[i]);
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
        method_name::kCpuRead,
        "threads bound to cores of the destination node read a buffer on the source node (vector loads only); "
        "worker count chosen per record among 1..cores (..PUs with --smt)",
        NumaPairMethod::CpuEnd::Dst);
}

}  // namespace hwcomm
