#include "methods/cpu/cpu_session.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "core/error.hpp"
#include "methods/cpu/bound_parallel.hpp"
#include "platform/dmi_memory.hpp"

namespace hwcomm {

std::vector<unsigned> worker_counts(unsigned cores, unsigned max_workers) {
    unsigned n = std::max(1u, cores);
    if (max_workers > 0) n = std::min(n, max_workers);
    std::vector<unsigned> counts;
    for (unsigned c = 1; c < n; c *= 2) counts.push_back(c);
    counts.push_back(n);
    return counts;
}

nlohmann::json byte_convention_to_json(const ByteConvention& c) {
    nlohmann::json j{{"counted", c.counted}};
    j["stream_kernel"] = c.stream_kernel.empty() ? nlohmann::json(nullptr) : nlohmann::json(c.stream_kernel);
    j["stream_factor"] = c.stream_factor > 0 ? nlohmann::json(c.stream_factor) : nlohmann::json(nullptr);
    return j;
}

CpuSession::CpuSession(std::size_t max_bytes, int workers_node, bool smt)
    : max_bytes_(max_bytes), slots_(core_slots_of_numa(topo_, workers_node, smt)),
      caches_(caches_of_numa(topo_, workers_node)), kernels_(&best_kernels()) {
    nlohmann::json workers = nlohmann::json::array();
    for (std::size_t i = 0; i < slots_.size(); ++i)
        workers.push_back({{"worker", i}, {"core", slots_[i].core}, {"pu", slots_[i].pu}});
    // A variant of k workers uses workers 0..k-1 of this list.
    context_["binding"] = {{"node", workers_node}, {"smt", smt}, {"unit", smt ? "pu" : "core"}, {"workers", workers}};
    context_["workers_node"] = workers_node;
    context_["node_cores"] = topo_.cores_of_numa(workers_node);
    context_["caches"] = cache_sizes_to_json(caches_);
    context_["kernels"] = {{"isa", to_string(kernels_->isa)}, {"nt_stores", kernels_->nt_stores}};
    context_["dram"] = dram_facts_to_json(read_dram_facts());
    // A plain-store fill of a buffer beyond the caches leaves up to a
    // last-level cache of dirty lines, which the timed pass then writes back
    // (300 MiB of them inside a 1 GiB cpu-read on the one-H100 host) and
    // fills at a third of the streaming rate (write-allocate).
    const std::uint64_t nt_from = streaming_fill_from();
    context_["pattern_fill"] = {
        {"non_temporal_from_bytes", nt_from ? nlohmann::json(nt_from) : nlohmann::json(nullptr)},
        {"why", nt_from ? "from twice the last-level cache up, the per-sample fill of the source uses streaming stores: "
                          "the timed pass starts with none of its buffers in the caches and no dirty line to write back"
                        : "plain stores at every size (no streaming stores on this path, or the last-level cache is unknown)"}};
    size_untimed_team();
    untimed_team_.run = [this](const std::function<void(unsigned)>& body) {
        run_workers(untimed_team_.chunks, 1, [&body](unsigned rank, unsigned) { body(rank); });
    };
}

void CpuSession::size_untimed_team() {
    untimed_team_.chunks = counts_.empty() ? std::max(1u, slot_count()) : counts_.back();
}

std::uint64_t CpuSession::streaming_fill_from() const {
    return kernels_->nt_stores && caches_.llc ? 2 * caches_.llc : 0;
}

Stores CpuSession::fill_stores(std::size_t bytes) const {
    const std::uint64_t from = streaming_fill_from();
    return from && bytes >= from ? Stores::NonTemporal : Stores::Plain;
}

std::vector<std::size_t> CpuSession::variant_probe_sizes() const {
    if (counts_.size() < 2) return {};
    // Small (one worker's share of the fork and barrier shows), cache-resident
    // (two buffers of this size fit the last level), and the largest.
    const std::uint64_t llc = llc_or_assumed();
    return {std::size_t{4} << 10, static_cast<std::size_t>(std::bit_floor(std::max<std::uint64_t>(llc / 4, 4096))),
            max_bytes_};
}

unsigned CpuSession::capped_workers(unsigned max_workers) {
    const unsigned places = slot_count();
    if (max_workers > places)
        context_["max_workers_adapted"] = "--max-workers " + std::to_string(max_workers) + " is above the " +
                                          std::to_string(places) + " places for workers on node " +
                                          std::to_string(context_.value("workers_node", -1)) + ": " +
                                          std::to_string(places) + " used";
    return max_workers ? std::min(max_workers, std::max(places, 1u)) : std::max(places, 1u);
}

void CpuSession::first_touch(NumaBuffer& buffer) {
    std::byte* data = buffer.data();
    const std::size_t bytes = std::max<std::size_t>(buffer.size(), 1);
    const std::size_t page = page_size();
    run_workers(slot_count(), 1, [&](unsigned rank, unsigned team) {
        const auto [begin, end] = line_chunk(bytes, rank, team);
        if (end <= begin) return;
        for (std::size_t off = begin; off < end; off += page) data[off] = std::byte{0};
        data[end - 1] = std::byte{0};
    });
    buffer.locate(topo_);
}

std::vector<std::string> CpuSession::variants() const {
    if (counts_.empty()) return {""};
    std::vector<std::string> v;
    for (unsigned c : counts_) v.push_back(std::to_string(c));
    return v;
}

void CpuSession::warmup(std::size_t bytes, const std::string& variant) {
    // The first pass warms caches and TLBs. Then batch enough transfers that
    // one sample lasts kMinSampleSeconds, estimated from the fastest of a few
    // single transfers (a preempted one would understate the batch). A single
    // transfer of kSingleIsOneSampleS or more is one sample whatever the
    // others would say: at 1 GiB the two more were a fifth of a point's time.
    run_timed(bytes, variant, 1);
    double single = run_timed(bytes, variant, 1);
    for (int i = 0; i < 2 && single < kSingleIsOneSampleS; ++i) single = std::min(single, run_timed(bytes, variant, 1));
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

void CpuSession::reset(std::size_t bytes, const std::string&) { write_pattern(bytes, ++seed_); }

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

double CpuSession::run_workers(unsigned workers, std::size_t reps, const std::function<void(unsigned, unsigned)>& body) {
    if (workers == 0 || workers > slots_.size())
        throw MeasurementError(std::to_string(workers) + " workers asked, the node has " + std::to_string(slots_.size()) +
                               " places for them");
    const std::span<const CoreSlot> used(slots_.data(), workers);
    BoundRun run = run_bound_parallel(topo_, used, reps, body);
    if (run.unbound_workers > 0)
        note_binding_failure(std::to_string(run.unbound_workers) + " worker(s) not bound: " + run.note);
    for (unsigned i = 0; i < workers; ++i)
        if (run.ran_on_pus[i] >= 0 && run.ran_on_pus[i] != used[i].pu)
            note_binding_failure("worker " + std::to_string(i) + " ran on PU " + std::to_string(run.ran_on_pus[i]) +
                                 ", bound to PU " + std::to_string(used[i].pu));
    return run.seconds;
}

void CpuSession::note_binding_failure(const std::string& what) {
    if (!context_.contains("binding_failure")) context_["binding_failure"] = what;
}

void CpuSession::note_buffer(const std::string& role, const NumaBuffer& buffer) {
    const Placement& p = buffer.placement();
    context_[role] = placement_to_json(p);
    context_[role]["bytes"] = buffer.size();
    if (buffer.huge_pages().requested) context_[role]["huge_pages"] = huge_pages_to_json(buffer.huge_pages());
    const bool all = context_.value("placement_verified", true) && p.verified;
    context_["placement_verified"] = all;
}

}  // namespace hwcomm
