// cpu-bandwidth-mix: the NUMA bandwidth matrix at read/write mixes, as Intel
// MLC's peak injection bandwidth. Every core of the source node (capped by
// --max-workers) moves data in memory on the destination node: all reads, or
// k reads per write (axis mix "3:1", "2:1", "1:1": a[i] = b1[i] + ... + bk[i]
// with non-temporal stores, so that no read for ownership changes the mix).
// The size is the footprint of all arrays; the bytes counted are every byte
// read plus every byte written.
#include <algorithm>
#include <memory>
#include <vector>

#include "catalog/method_names.hpp"
#include "core/error.hpp"
#include "methods/cpu/bound_parallel.hpp"
#include "methods/cpu/cpu_methods.hpp"
#include "methods/cpu/cpu_session.hpp"
#include "methods/cpu/numa_pair_method.hpp"
#include "methods/cpu/pattern.hpp"
#include "platform/parallel_chunks.hpp"

namespace hwcomm {

namespace {

// Reads per write of a mix value; 0 for "read" (all reads).
unsigned reads_per_write(const std::string& mix) {
    if (mix == "read") return 0;
    if (mix == "1:1") return 1;
    if (mix == "2:1") return 2;
    if (mix == "3:1") return 3;
    throw MeasurementError("mix " + mix + " is not read, 3:1, 2:1 or 1:1");
}

class MixSession : public CpuSession {
public:
    MixSession(int src, int dst, std::size_t max_bytes, const MethodOptions& options)
        : CpuSession(max_bytes, src, options.values.flag("smt")),
          buffer_(topo_, dst, std::max<std::size_t>(max_bytes, 256), BufferOptions{.touch_later = true}) {
        if (slot_count() == 0) throw MeasurementError("NUMA node " + std::to_string(src) + " has no core");
        workers_ = capped_workers(options.max_workers);
        first_touch(buffer_);
        note_buffer("buffer", buffer_);
        context_["workers"] = workers_;
        context_["stores"] = "nt";
        note_byte_convention({"every byte read plus every byte written (the size is the footprint of all arrays)", "", 0});
    }
    void set_axes(const std::map<std::string, nlohmann::json>& values) override {
        const auto it = values.find("mix");
        k_ = reads_per_write(it == values.end() ? "read" : it->second.get<std::string>());
    }
    Sample measure(std::size_t bytes, const std::string& variant) override {
        Sample s = CpuSession::measure(bytes, variant);
        s.bytes_per_rep = static_cast<double>(moved(bytes));
        return s;
    }
    std::string verify(std::size_t bytes, const std::string&) override {
        if (k_ == 0) {
            std::uint64_t total = 0;
            for (const auto& p : partial_) total += p.value;
            const std::uint64_t expected = fill_sum_;
            return total == expected ? "" : "the timed reads summed " + std::to_string(total) + ", expected " + std::to_string(expected);
        }
        const std::size_t words = array_bytes(bytes) / 8;
        const auto* a = reinterpret_cast<const std::uint64_t*>(array(0, bytes));
        std::vector<std::uint64_t> masks;
        for (unsigned j = 0; j < k_; ++j) masks.push_back(pattern_mask(seed() * 4 + j));
        const std::size_t first = first_failing(
            words, bytes >= kParallelFillBytes,
            [&](std::size_t i) {
                std::uint64_t v = 0;
                for (std::uint64_t m : masks) v += pattern_word(m, i);
                return a[i] != v;
            },
            untimed_team());
        return first == words ? "" : "word " + std::to_string(first) + " of the written array is not this sample's sum";
    }

protected:
    void write_pattern(std::size_t bytes, std::uint64_t seed) override {
        if (k_ == 0) {
            fill_sum_ = fill_pattern(buffer_.data(), bytes / 8 * 8, seed, fill_stores(bytes), untimed_team());
            return;
        }
        const std::size_t arr = array_bytes(bytes);
        for (unsigned j = 0; j < k_; ++j)
            fill_pattern(array(j + 1, bytes), arr, seed * 4 + j, fill_stores(bytes), untimed_team());
        poison(array(0, bytes), arr, seed, untimed_team());
    }
    double run_timed(std::size_t bytes, const std::string&, std::size_t reps) override {
        partial_.assign(workers_, PaddedSum{});
        const StreamKernels& kern = kernels();
        const unsigned k = k_;
        const std::size_t arr = k == 0 ? bytes / 8 * 8 : array_bytes(bytes);
        std::byte* base = k == 0 ? buffer_.data() : array(0, bytes);
        std::vector<const std::uint64_t*> sources;
        for (unsigned j = 0; j < k; ++j) sources.push_back(reinterpret_cast<const std::uint64_t*>(array(j + 1, bytes)));
        return run_workers(workers_, reps, [&](unsigned rank, unsigned team) {
            const auto [b, e] = line_chunk(arr, rank, team);
            if (e <= b) return;
            if (k == 0) {
                partial_[rank].value = kern.read_sum(reinterpret_cast<const std::uint64_t*>(base + b), (e - b) / 8);
                return;
            }
            const std::uint64_t* mine[3];
            for (unsigned j = 0; j < k; ++j) mine[j] = sources[j] + b / 8;
            kern.sum_into(reinterpret_cast<std::uint64_t*>(base + b), mine, k, (e - b) / 8, Stores::NonTemporal);
        });
    }

private:
    // Each of the k + 1 arrays of a write mix: an equal share of the footprint, in whole lines.
    std::size_t array_bytes(std::size_t bytes) const { return bytes / (k_ + 1) / 64 * 64; }
    // Array j (0: the written one) of a write mix at this size, laid out one after the other.
    std::byte* array(unsigned j, std::size_t bytes) { return buffer_.data() + j * array_bytes(bytes); }
    std::size_t moved(std::size_t bytes) const { return k_ == 0 ? bytes / 8 * 8 : (k_ + 1) * array_bytes(bytes); }

    NumaBuffer buffer_;
    unsigned workers_ = 1;
    unsigned k_ = 0;
    std::vector<PaddedSum> partial_;
    std::uint64_t fill_sum_ = 0;
};

class BandwidthMix final : public NumaPairMethod {
public:
    std::string name() const override { return method_name::kCpuBandwidthMix; }
    std::string description() const override {
        return "every core of the source node reads (and writes) memory on the destination node at read/write mixes "
               "(axis mix: read, 3:1, 2:1, 1:1; non-temporal stores); bytes read plus written over the time";
    }
    std::vector<AxisSpec> axes() const override {
        return {{"mix", {"read", "3:1", "2:1", "1:1"}, "reads:writes",
                 "read: loads only; k:1: k arrays read for each array written"}};
    }
    SizePolicy size_policy() const override { return {.alignment = 256, .min_bytes = 4096, .largest_only = true}; }
    std::unique_ptr<TransferSession> prepare(const Graph&, const Vertex& src, const Vertex& dst, const ParamSet&,
                                             std::size_t max_bytes, const MethodOptions& options) const override {
        return std::make_unique<MixSession>(numa_index_of(src), numa_index_of(dst), max_bytes, options);
    }

protected:
    CpuEnd cpu_end() const override { return CpuEnd::Src; }
};

}  // namespace

std::unique_ptr<Characterizer> make_cpu_bandwidth_mix() { return std::make_unique<BandwidthMix>(); }

}  // namespace hwcomm
