#pragma once
// Shared machinery of the CPU methods: the live topology, buffers bound to
// NUMA nodes, batching of small transfers (repetitions calibrated during
// warm-up so one sample lasts at least ~20 us), and the record context.
#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "methods/characterizer.hpp"
#include "platform/hwloc_topology.hpp"
#include "platform/numa_buffer.hpp"

namespace hwcomm {

// One sample should last this long at least, far above the clock resolution.
inline constexpr double kMinSampleSeconds = 20e-6;

// 1, 2, 4, ... below n, then n; capped at max_workers when non-zero.
std::vector<unsigned> worker_counts(unsigned cores, unsigned max_workers);

// The NUMA OS index of a vertex, or MeasurementError.
int numa_index_of(const Vertex& v);

class CpuSession : public TransferSession {
public:
    void warmup(std::size_t bytes, const std::string& variant) override;
    Sample measure(std::size_t bytes, const std::string& variant) override;
    nlohmann::json context() const override;
    std::size_t max_bytes() const override { return max_bytes_; }

protected:
    explicit CpuSession(std::size_t max_bytes) : max_bytes_(max_bytes) {}
    // Times `reps` transfers of `bytes` with the variant; returns seconds.
    virtual double run_timed(std::size_t bytes, const std::string& variant, std::size_t reps) = 0;
    // Adds a buffer's placement to the context.
    void note_buffer(const std::string& role, const NumaBuffer& buffer);
    void note_binding(unsigned unbound, const std::string& note);

    HwlocTopology topo_;
    std::size_t max_bytes_;
    nlohmann::json context_ = nlohmann::json::object();

private:
    std::map<std::pair<std::size_t, std::string>, std::size_t> reps_;
};

// Fills a buffer with the reference pattern (8-byte words i * K + 1, then bytes).
void fill_pattern(std::byte* data, std::size_t bytes);
// Sum of the buffer read as 8-byte words plus its trailing bytes.
std::uint64_t reference_sum(const std::byte* data, std::size_t bytes);

}  // namespace hwcomm
