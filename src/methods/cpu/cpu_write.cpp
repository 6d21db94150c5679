// cpu-write: workers bound to cores of the source node write an allocation on
// the destination node, each worker its own contiguous chunk, with plain
// stores (stores=plain: every line is read for ownership first) or with
// non-temporal stores (stores=nt): the difference is the write-allocate cost.
// Each sample writes its own pattern (the seed reset() chose), so verify()
// sees the timed batch's writes.
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

class WriteSession : public CpuSession {
public:
    WriteSession(int src, int dst, std::size_t max_bytes, Stores stores, const MethodOptions& options)
        : CpuSession(max_bytes, src, options.values.flag("smt")),
          buffer_(topo_, dst, max_bytes, BufferOptions{.touch_later = true}), stores_(stores) {
        sweep_worker_counts(options.max_workers);
        first_touch(buffer_);
        poison(buffer_.data(), buffer_.size(), seed(), untimed_team());  // once: later samples find an earlier sample's pattern
        note_buffer("dst_buffer", buffer_);
        context_["stores"] = to_string(stores_);
        note_byte_convention({"each byte written once (read-for-ownership traffic of plain stores not counted)", "", 0});
    }
    std::string verify(std::size_t bytes, const std::string&) override {
        return pattern_mismatch(buffer_.data(), bytes, seed(), untimed_team());
    }

protected:
    // Nothing to write: reset()'s new seed is the whole reset, since the
    // buffer holds an earlier seed's pattern, which differs from this seed's in
    // every word (pattern.hpp). Poisoning it again cost a full write per sample.
    void write_pattern(std::size_t, std::uint64_t) override {}
    double run_timed(std::size_t bytes, const std::string& variant, std::size_t reps) override {
        const unsigned workers = static_cast<unsigned>(std::stoul(variant));
        std::byte* data = buffer_.data();
        auto* words = reinterpret_cast<std::uint64_t*>(data);
        const std::size_t whole = bytes / 8 * 8;
        const std::uint64_t mask = pattern_mask(seed());
        const auto write = kernels().write_pattern;
        const Stores stores = stores_;
        return run_workers(workers, reps, [&](unsigned rank, unsigned team) {
            const auto [b, e] = line_chunk(bytes, rank, team);
            const std::size_t words_end = std::min(e, whole);
            if (words_end > b) write(words, b / 8, words_end / 8, mask, stores);
            for (std::size_t i = std::max(b, whole); i < e; ++i) data[i] = pattern_byte(mask, i);
        });
    }

private:
    NumaBuffer buffer_;
    Stores stores_;
};

}  // namespace

std::unique_ptr<Characterizer> make_cpu_write() {
    return make_stores_numa_pair_method<WriteSession>(
        method_name::kCpuWrite,
        "threads bound to cores of the source node write a buffer on the destination node (vector stores, "
        "plain or non-temporal); worker count chosen per record among 1..cores (..PUs with --smt)",
        NumaPairMethod::CpuEnd::Src);
}

}  // namespace hwcomm
