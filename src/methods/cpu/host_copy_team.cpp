#include "methods/cpu/host_copy_team.hpp"

#include <algorithm>
#include <cstring>
#include <map>

#include "core/error.hpp"
#include "methods/cpu/bound_parallel.hpp"
#include "platform/clock.hpp"

namespace hwcomm {

namespace {

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield" ::: "memory");
#endif
}

}  // namespace

HostCopyTeam::HostCopyTeam(const HwlocTopology& topo, std::vector<CoreSlot> slots)
    : topo_(topo), slots_(std::move(slots)) {
    if (slots_.empty()) throw MeasurementError("a CPU lane without a core to run on");
    starts_.assign(slots_.size(), 0);
    stops_.assign(slots_.size(), 0);
    notes_.assign(slots_.size(), "");
    try {
        for (unsigned r = 0; r < slots_.size(); ++r) threads_.emplace_back([this, r] { work(r); });
    } catch (...) {
        stop_ = true;
        armed_.notify_all();
        for (auto& t : threads_) t.join();
        throw MeasurementError("cannot start the threads of a CPU lane");
    }
}

HostCopyTeam::~HostCopyTeam() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    armed_.notify_all();
    for (auto& t : threads_) t.join();
}

void HostCopyTeam::arm(std::byte* dst, const std::byte* src, std::size_t bytes, std::size_t reps,
                       const std::atomic<std::uint64_t>* release, std::uint64_t ticket) {
    if (!try_arm(dst, src, bytes, reps, release, ticket))
        throw MeasurementError("internal: a CPU lane armed while its last job runs");
}

bool HostCopyTeam::try_arm(std::byte* dst, const std::byte* src, std::size_t bytes, std::size_t reps,
                           const std::atomic<std::uint64_t>* release, std::uint64_t ticket) noexcept {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (done_id_ != job_.id) return false;
        running_ = threads();
        job_ = {dst, src, bytes, reps, release, ticket, job_.id + 1};
    }
    armed_.notify_all();
    return true;
}

HostCopyTeam::Span HostCopyTeam::wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    finished_.wait(lock, [this] { return done_id_ == job_.id; });
    Span s;
    s.start_s = *std::min_element(starts_.begin(), starts_.end());
    s.stop_s = *std::max_element(stops_.begin(), stops_.end());
    return s;
}

std::string HostCopyTeam::binding_note() const {
    for (const std::string& n : notes_)
        if (!n.empty()) return n;
    return "";
}

void HostCopyTeam::work(unsigned rank) {
    const ScopedThreadBinding binding(topo_, slots_[rank]);
    if (!binding.bound()) notes_[rank] = "thread " + std::to_string(rank) + " not bound: " + binding.note();
    std::uint64_t seen = 0;
    for (;;) {
        Job j;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            armed_.wait(lock, [&] { return stop_ || job_.id != seen; });
            if (stop_) return;
            j = job_;
            seen = j.id;
        }
        while (j.release->load(std::memory_order_acquire) < j.ticket) {
            if (stop_.load(std::memory_order_relaxed)) return;
            cpu_relax();
        }
        // Chunks on 64-byte boundaries so threads never share a cache line.
        const std::size_t lines = (j.bytes + 63) / 64;
        const auto [b, e] = chunk_of(lines, rank, threads());
        const std::size_t begin = std::min(j.bytes, b * 64), end = std::min(j.bytes, e * 64);
        const double t0 = steady_seconds();
        for (std::size_t r = 0; r < j.reps; ++r) {
            if (end > begin) std::memcpy(j.dst + begin, j.src + begin, end - begin);
            compiler_memory_barrier();
        }
        starts_[rank] = t0;
        stops_[rank] = steady_seconds();
        if (running_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
            {
                std::lock_guard<std::mutex> lock(mutex_);
                done_id_ = j.id;
            }
            finished_.notify_all();
            if (on_done_) on_done_(j.reps);  // after done: whoever it wakes may arm the next job at once
        }
    }
}

std::vector<std::vector<CoreSlot>> assign_team_slots(const HwlocTopology& topo, const std::vector<TeamRequest>& lanes,
                                                     bool smt, std::vector<std::string>& notes) {
    std::map<int, std::vector<CoreSlot>> slots;
    std::map<int, unsigned> asked, sharing;
    for (const TeamRequest& r : lanes) {
        if (!slots.count(r.numa)) slots[r.numa] = core_slots_of_numa(topo, r.numa, smt);
        if (slots[r.numa].empty())
            throw MeasurementError("numa" + std::to_string(r.numa) + " has no cores to bind a CPU lane to");
        if (r.threads) asked[r.numa] += r.threads;
        else ++sharing[r.numa];
    }
    std::map<int, std::size_t> next;
    std::vector<std::vector<CoreSlot>> out;
    for (const TeamRequest& r : lanes) {
        const auto& node = slots[r.numa];
        const unsigned left = node.size() > asked[r.numa] ? static_cast<unsigned>(node.size()) - asked[r.numa] : 0;
        const unsigned n = r.threads ? r.threads : std::max(1u, left / std::max(1u, sharing[r.numa]));
        std::vector<CoreSlot> mine;
        for (unsigned i = 0; i < n; ++i) mine.push_back(node[(next[r.numa] + i) % node.size()]);
        next[r.numa] += n;
        out.push_back(std::move(mine));
    }
    for (const auto& [numa, used] : next)
        if (used > slots[numa].size())
            notes.push_back("numa" + std::to_string(numa) + ": " + std::to_string(used) + " threads on " +
                            std::to_string(slots[numa].size()) + (smt ? " PUs" : " cores") + ": oversubscribed");
    return out;
}

}  // namespace hwcomm
