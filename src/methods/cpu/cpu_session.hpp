#pragma once
// Shared machinery of the CPU methods: the live topology, buffers bound to
// NUMA nodes, workers bound one per physical core, batching of small
// transfers (repetitions calibrated during warm-up so one sample lasts at
// least ~20 us), per-sample patterns and the record context.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "methods/characterizer.hpp"
#include "methods/cpu/stream_kernels.hpp"
#include "platform/cache_sizes.hpp"
#include "platform/hwloc_topology.hpp"
#include "platform/numa_buffer.hpp"
#include "platform/parallel_chunks.hpp"
#include "platform/thread_binding.hpp"

namespace hwcomm {

// One sample should last this long at least, far above the clock resolution.
inline constexpr double kMinSampleSeconds = 20e-6;
// A single transfer this long is a sample of one repetition: no preemption
// makes a transfer 50 times slower than kMinSampleSeconds.
inline constexpr double kSingleIsOneSampleS = 1e-3;

// 1, 2, 4, ... below n, then n; capped at max_workers when non-zero.
std::vector<unsigned> worker_counts(unsigned cores, unsigned max_workers);

// How a record counts its bytes, beside STREAM's count of the same kernel:
// hwcomm counts each byte of the transfer once (the size of one array);
// STREAM counts every array the kernel touches (Copy 2x, Triad 3x).
struct ByteConvention {
    std::string counted;       // what bytes_per_rep is, in words
    std::string stream_kernel;  // "Copy", "Triad", "" when STREAM has no such kernel
    int stream_factor = 0;      // STREAM's bytes per hwcomm byte; 0 when none
};
nlohmann::json byte_convention_to_json(const ByteConvention& c);

class CpuSession : public TransferSession {
public:
    // The untimed team's run captures `this`: a copy or a moved-to session
    // would run its fills on the original's workers.
    CpuSession(const CpuSession&) = delete;
    CpuSession& operator=(const CpuSession&) = delete;
    CpuSession(CpuSession&&) = delete;
    CpuSession& operator=(CpuSession&&) = delete;

    // Worker counts ("1", "2", ...) after sweep_worker_counts(), else {""}.
    std::vector<std::string> variants() const override;
    void warmup(std::size_t bytes, const std::string& variant) override;
    // A new seed, then write_pattern(): the next batch must move this sample's bytes.
    void reset(std::size_t bytes, const std::string& variant) override;
    Sample measure(std::size_t bytes, const std::string& variant) override;
    nlohmann::json context() const override;
    std::size_t max_bytes() const override { return max_bytes_; }
    // With several worker counts: 4 KiB, a quarter of the last-level cache and the largest size.
    std::vector<std::size_t> variant_probe_sizes() const override;

protected:
    // Plans the workers on `workers_node`: one per physical core, SMT
    // siblings after all cores when `smt` (recorded in the context).
    CpuSession(std::size_t max_bytes, int workers_node, bool smt);
    // Times `reps` transfers of `bytes` with the variant; returns seconds.
    virtual double run_timed(std::size_t bytes, const std::string& variant, std::size_t reps) = 0;
    // Untimed, before each sample: the pattern of `seed` into the source. The
    // destination, poisoned once when the session is made, then holds an
    // earlier seed's data, which no correct transfer of this seed leaves there.
    virtual void write_pattern(std::size_t bytes, std::uint64_t seed) = 0;
    // Runs body on the first `workers` planned slots for `reps` repetitions,
    // notes binding failures in the context; returns seconds.
    double run_workers(unsigned workers, std::size_t reps, const std::function<void(unsigned, unsigned)>& body);
    // Places for workers on the workers' node (cores, or PUs with smt).
    unsigned slot_count() const { return static_cast<unsigned>(slots_.size()); }
    // Variants 1, 2, 4, ... up to every slot (capped by max_workers when non-zero).
    // The untimed team then has as many workers as the largest count.
    void sweep_worker_counts(unsigned max_workers) {
        counts_ = worker_counts(capped_workers(max_workers), 0);
        size_untimed_team();
    }
    // Every place for workers, or max_workers when non-zero and fewer; a cap
    // above the node's places is noted in the context (context.max_workers_adapted).
    unsigned capped_workers(unsigned max_workers);
    // The seed of the current sample's pattern (0 until the first reset).
    std::uint64_t seed() const { return seed_; }
    // Adds a buffer's placement (and huge pages, when asked for) to the context.
    void note_buffer(const std::string& role, const NumaBuffer& buffer);
    // Every worker of the largest count touches its own chunk of a buffer made
    // with BufferOptions::touch_later, then the placement is checked.
    void first_touch(NumaBuffer& buffer);
    // The loops of the running CPU (context.kernels names them).
    const StreamKernels& kernels() const { return *kernels_; }
    void note_byte_convention(const ByteConvention& c) { context_["byte_convention"] = byte_convention_to_json(c); }
    const CacheSizes& caches() const { return caches_; }
    // The last-level cache, or 32 MiB where the machine does not say (what
    // the probe sizes and the latency warm-up then assume).
    std::uint64_t llc_or_assumed() const { return caches_.llc ? caches_.llc : std::uint64_t{32} << 20; }
    // How write_pattern fills `bytes` of a source: streaming stores from twice
    // the last-level cache up (context.pattern_fill), plain stores below,
    // where what the fill leaves in the caches is part of what a point measures.
    Stores fill_stores(std::size_t bytes) const;
    // The workers that fill and check buffers between samples: the bound
    // team of the largest worker count, warm from the timed batch before.
    const ChunkTeam* untimed_team() const { return &untimed_team_; }

    HwlocTopology topo_;
    std::size_t max_bytes_;
    nlohmann::json context_ = nlohmann::json::object();

private:
    void note_binding_failure(const std::string& what);
    // The untimed team's size from counts_: the largest worker count, every
    // slot before sweep_worker_counts. Called whenever counts_ changes.
    void size_untimed_team();
    // Twice the last-level cache where streaming stores exist and the cache
    // is known, else 0 (no streaming fill at any size).
    std::uint64_t streaming_fill_from() const;

    std::vector<CoreSlot> slots_;
    CacheSizes caches_;
    const StreamKernels* kernels_;
    std::vector<unsigned> counts_;
    std::uint64_t seed_ = 0;
    std::map<std::pair<std::size_t, std::string>, std::size_t> reps_;
    ChunkTeam untimed_team_;
};

}  // namespace hwcomm
