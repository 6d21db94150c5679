// cpu-copy: STREAM's Copy between NUMA nodes. Workers bound to cores of the
// source node copy a buffer on the source node into one on the destination
// node with vector loads and plain (stores=plain) or non-temporal
// (stores=nt) vector stores, each worker its own contiguous chunk. hwcomm
// counts the bytes copied once; STREAM counts them twice (read and write).
#include <cstring>
#include <memory>

#include "catalog/method_names.hpp"
#include "methods/cpu/bound_parallel.hpp"
#include "methods/cpu/cpu_methods.hpp"
#include "methods/cpu/cpu_session.hpp"
#include "methods/cpu/numa_pair_method.hpp"
#include "methods/cpu/pattern.hpp"

namespace hwcomm {

namespace {

class CopySession : public CpuSession {
public:
    CopySession(int src, int dst, std::size_t max_bytes, Stores stores, const MethodOptions& options)
        : CpuSession(max_bytes, src, options.values.flag("smt")),
          src_(topo_, src, max_bytes, BufferOptions{.touch_later = true}),
          dst_(topo_, dst, max_bytes, BufferOptions{.touch_later = true}), stores_(stores) {
        sweep_worker_counts(options.max_workers);
        first_touch(src_);
        first_touch(dst_);
        write_pattern(max_bytes, seed());
        poison(dst_.data(), max_bytes, seed(), untimed_team());  // once: later samples find an earlier sample's pattern there
        note_buffer("src_buffer", src_);
        note_buffer("dst_buffer", dst_);
        context_["stores"] = to_string(stores_);
        note_byte_convention({"each byte copied once", "Copy", 2});
    }
    std::string verify(std::size_t bytes, const std::string&) override {
        return pattern_mismatch(dst_.data(), bytes, seed(), untimed_team());
    }

protected:
    // The destination is not poisoned again: it holds an earlier seed's
    // pattern, which differs from this seed's in every word (pattern.hpp).
    void write_pattern(std::size_t bytes, std::uint64_t seed) override {
        fill_pattern(src_.data(), bytes, seed, fill_stores(bytes), untimed_team());
    }
    double run_timed(std::size_t bytes, const std::string& variant, std::size_t reps) override {
        const unsigned workers = static_cast<unsigned>(std::stoul(variant));
        std::byte* d = dst_.data();
        const std::byte* s = src_.data();
        const std::size_t whole = bytes / 8 * 8;
        const auto copy = kernels().copy;
        const Stores stores = stores_;
        return run_workers(workers, reps, [&](unsigned rank, unsigned team) {
            const auto [b, e] = line_chunk(bytes, rank, team);
            const std::size_t words_end = std::min(e, whole);
            if (words_end > b)
                copy(reinterpret_cast<std::uint64_t*>(d + b), reinterpret_cast<const std::uint64_t*>(s + b),
                     (words_end - b) / 8, stores);
            const std::size_t tail = std::max(b, whole);
            if (e > tail) std::memcpy(d + tail, s + tail, e - tail);
        });
    }

private:
    NumaBuffer src_, dst_;
    Stores stores_;
};

}  // namespace

std::unique_ptr<Characterizer> make_cpu_copy() {
    return make_stores_numa_pair_method<CopySession>(
        method_name::kCpuCopy,
        "STREAM Copy: threads bound to cores of the source node copy a buffer on the source node to one on the "
        "destination node (vector loads, plain or non-temporal stores); bytes copied counted once (STREAM: 2x)",
        NumaPairMethod::CpuEnd::Src);
}

}  // namespace hwcomm
