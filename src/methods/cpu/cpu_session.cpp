#include "methods/cpu/cpu_session.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/error.hpp"

namespace hwcomm {

std::vector<unsigned> worker_counts(unsigned cores, unsigned max_workers) {
    unsigned n = std::max(1u, cores);
    if (max_workers > 0) n = std::min(n, max_workers);
    std::vector<unsigned> counts;
    for (unsigned c = 1; c < n; c *= 2) counts.push_back(c);
    counts.push_back(n);
    return counts;
}

int numa_index_of(const Vertex& v) {
    if (v.kind != VertexKind::NumaNode || v.os_index < 0)
        throw MeasurementError(v.id + " is not a NUMA node with an OS index");
    return v.os_index;
}

void CpuSession::warmup(std::size_t bytes, const std::string& variant) {
    // The first pass warms caches and TLBs. Then batch enough transfers that
    // one sample lasts kMinSampleSeconds, estimated from the fastest of a few
    // single transfers (a preempted one would understate the batch).
    run_timed(bytes, variant, 1);
    double single = run_timed(bytes, variant, 1);
    for (int i = 0; i < 2; ++i) single = std::min(single, run_timed(bytes, variant, 1));
    auto reps_for = [](double per_rep) {
        return static_cast<std::size_t>(std::clamp(std::ceil(1.2 * kMinSampleSeconds / std::max(per_rep, 1e-10)), 1.0, 1e7));
    };
    std::size_t reps = reps_for(single);
    for (int round = 0; round < 3 && reps > 1; ++round) {
        const double batch = run_timed(bytes, variant, reps);
        if (batch >= kMinSampleSeconds) break;
        reps = std::max(reps + 1, reps_for(batch / static_cast<double>(reps)));
    }
    reps_[{bytes, variant}] = reps;
}

Sample CpuSession::measure(std::size_t bytes, const std::string& variant) {
    auto it = reps_.find({bytes, variant});
    const std::size_t reps = it == reps_.end() ? 1 : it->second;
    Sample s;
    s.repetitions = reps;
    s.bytes_per_rep = static_cast<double>(bytes);
    s.seconds = run_timed(bytes, variant, reps);
    return s;
}

nlohmann::json CpuSession::context() const { return context_; }

void CpuSession::note_buffer(const std::string& role, const NumaBuffer& buffer) {
    const Placement& p = buffer.placement();
    context_[role] = {{"requested_node", p.requested_node}, {"actual_nodes", p.actual_nodes},
                      {"verified", p.verified}, {"note", p.note}, {"bytes", buffer.size()}};
    const bool all = context_.value("placement_verified", true) && p.verified;
    context_["placement_verified"] = all;
}

void CpuSession::note_binding(unsigned unbound, const std::string& note) {
    if (unbound == 0 || context_.contains("binding_failure")) return;
    context_["binding_failure"] = std::to_string(unbound) + " worker(s) not bound: " + note;
}

void fill_pattern(std::byte* data, std::size_t bytes) {
    const std::size_t words = bytes / 8;
    auto* w = reinterpret_cast<std::uint64_t*>(data);
    for (std::size_t i = 0; i < words; ++i) w[i] = i * 0x9E3779B97F4A7C15ull + 1;
    for (std::size_t b = words * 8; b < bytes; ++b) data[b] = static_cast<std::byte>(b * 31 + 7);
}

std::uint64_t reference_sum(const std::byte* data, std::size_t bytes) {
    const std::size_t words = bytes / 8;
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < words; ++i) {
        std::uint64_t w;
        std::memcpy(&w, data + i * 8, 8);
        sum += w;
    }
    for (std::size_t b = words * 8; b < bytes; ++b) sum += static_cast<std::uint64_t>(data[b]);
    return sum;
}

}  // namespace hwcomm
