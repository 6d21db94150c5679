#include "run/host_read_probe.hpp"

#include <algorithm>
#include <atomic>
#include <thread>

#include "core/error.hpp"
#include "measure/statistics.hpp"
#include "methods/cpu/stream_kernels.hpp"
#include "platform/cache_sizes.hpp"
#include "platform/clock.hpp"

namespace hwcomm {

std::uint64_t host_read_probe_bytes(std::uint64_t llc_bytes) {
    constexpr std::uint64_t kMin = std::uint64_t{64} << 20, kMax = std::uint64_t{1} << 30;
    const std::uint64_t twice = llc_bytes > kMax ? kMax : 2 * llc_bytes;
    return std::clamp(twice / 4096 * 4096, kMin, kMax);
}

HostReadProbe::HostReadProbe(std::unique_ptr<HwlocTopology> topo, int numa, std::uint64_t bytes)
    : topo_(std::move(topo)), numa_(numa), buffer_(*topo_, numa, static_cast<std::size_t>(bytes)),
      slots_(core_slots_of_numa(*topo_, numa, false)), started_s_(steady_seconds()) {
    if (slots_.empty()) throw MeasurementError("numa" + std::to_string(numa) + " has no cores to read its memory");
    if (slots_.size() > kHostReadMaxThreads) slots_.resize(kHostReadMaxThreads);
    // A pattern, so that the reads sum something (the pages are touched already).
    auto* words = reinterpret_cast<std::uint64_t*>(buffer_.data());
    for (std::size_t i = 0, n = buffer_.size() / 8; i < n; i += 512) words[i] = i;
}

HostReadVisit HostReadProbe::visit() {
    const auto n = static_cast<unsigned>(slots_.size());
    const std::size_t total = buffer_.size() / 8;
    const auto* words = reinterpret_cast<const std::uint64_t*>(buffer_.data());
    std::atomic<unsigned> ready{0}, done{0};
    std::atomic<int> go{0};  // read k starts when go reaches k
    std::atomic<std::uint64_t> sink{0};
    const auto read_sum = best_kernels().read_sum;
    std::vector<std::thread> team;
    team.reserve(n);
    for (unsigned t = 0; t < n; ++t)
        team.emplace_back([&, t] {
            const ScopedThreadBinding bind(*topo_, slots_[t]);
            const std::size_t begin = total * t / n, end = total * (t + 1) / n;
            for (int k = 1; k <= kHostReadReadsPerVisit; ++k) {
                ready.fetch_add(1, std::memory_order_release);
                ready.notify_one();
                // Asleep, not spinning: on a machine of few cores the calling thread needs one to start the read.
                for (int g = go.load(std::memory_order_acquire); g < k; g = go.load(std::memory_order_acquire))
                    go.wait(g);
                // cpu-read's kernel (vector loads, independent sums): the rate the CPU records reach.
                sink.fetch_add(read_sum(words + begin, end - begin), std::memory_order_relaxed);
                if (done.fetch_add(1, std::memory_order_acq_rel) + 1 == n * static_cast<unsigned>(k)) done.notify_one();
            }
        });
    std::vector<double> seconds;
    for (int k = 1; k <= kHostReadReadsPerVisit; ++k) {
        // The calling thread is not bound and may share a core with a reader: it sleeps while they work.
        const unsigned all = n * static_cast<unsigned>(k);
        for (unsigned r = ready.load(std::memory_order_acquire); r < all; r = ready.load(std::memory_order_acquire))
            ready.wait(r);
        const double t0 = steady_seconds();
        go.store(k, std::memory_order_release);
        go.notify_all();
        for (unsigned d = done.load(std::memory_order_acquire); d < all; d = done.load(std::memory_order_acquire))
            done.wait(d);
        seconds.push_back(steady_seconds() - t0);
    }
    for (auto& th : team) th.join();
    const double median = median_value(std::move(seconds));
    HostReadVisit v{elapsed_s(), median > 0 ? static_cast<double>(buffer_.size()) / median / 1e9 : 0};
    visits_.push_back(v);
    return v;
}

double HostReadProbe::elapsed_s() const { return steady_seconds() - started_s_; }

void HostReadProbe::visit_if_due() {
    if (visits_.empty() || elapsed_s() - visits_.back().t_s >= kHostReadEveryS) visit();
}

void HostReadProbe::annotate(Record& record) const {
    if (visits_.empty()) return;
    const auto took = record.context.find("elapsed_s");
    record.context["host_read_gbps"] = rates_over(took != record.context.end() && took->is_number() ? took->get<double>() : 0);
}

nlohmann::json HostReadProbe::rates_over(double seconds) const {
    const double start = elapsed_s() - seconds;
    std::size_t first = 0;
    for (std::size_t i = 0; i < visits_.size(); ++i)
        if (visits_[i].t_s <= start) first = i;
    nlohmann::json rates = nlohmann::json::array();
    for (std::size_t i = first; i < visits_.size(); ++i) rates.push_back(visits_[i].gbps);
    return rates;
}

nlohmann::json HostReadProbe::to_json() const {
    nlohmann::json visits = nlohmann::json::array();
    for (const HostReadVisit& v : visits_) visits.push_back({{"t_s", v.t_s}, {"gbps", v.gbps}});
    return {{"numa", numa_},
            {"bytes", buffer_.size()},
            {"threads", slots_.size()},
            {"reads_per_visit", kHostReadReadsPerVisit},
            {"visits", std::move(visits)}};
}

std::unique_ptr<HostReadProbe> make_host_read_probe(std::string& why) {
    why = "no NUMA node has cores";
    try {
        auto topo = std::make_unique<HwlocTopology>();
        // The first node with cores whose memory takes the buffer (a node may have cores and no memory).
        for (const int numa : topo->numa_os_indexes()) {
            if (!topo) topo = std::make_unique<HwlocTopology>();  // the failed probe took it
            if (topo->cores_of_numa(numa) == 0) continue;
            const std::uint64_t bytes = host_read_probe_bytes(caches_of_numa(*topo, numa).llc);
            try {
                return std::make_unique<HostReadProbe>(std::move(topo), numa, bytes);
            } catch (const std::exception& e) {
                why = "numa" + std::to_string(numa) + ": " + e.what();
            }
        }
    } catch (const std::exception& e) {
        why = e.what();
    }
    return nullptr;
}

HostReadSeries::HostReadSeries(nlohmann::json& meta, const std::string& why_none) : meta_(&meta) {
    std::string why = why_none;
    if (why.empty()) probe_ = make_host_read_probe(why);
    if (probe_) visit(false);
    else (*meta_)["run"]["host_read"] = {{"skipped", why}};
}

void HostReadSeries::visit(bool when_due) {
    if (!probe_) return;
    if (when_due) probe_->visit_if_due();
    else probe_->visit();
    (*meta_)["run"]["host_read"] = probe_->to_json();
}

void HostReadSeries::after_record(Record& record) {
    visit(true);
    if (probe_) probe_->annotate(record);
}

void HostReadSeries::after_recheck(Record& representative) {
    visit(true);
    if (!probe_) return;
    nlohmann::json& recheck = representative.context["recheck"];
    recheck["host_read_gbps"] = probe_->rates_over(recheck.value("elapsed_s", 0.0));
}

void HostReadSeries::finish() { visit(false); }

}  // namespace hwcomm
