// gpumem-timeline: per-warp latency of one read. Every thread loads one
// element (float or float4) of 64 MiB in the GPU's own memory; lane 0 of each
// warp records its SM, block and warp ids and the SM clock (clock64) and
// global timer before and after the load. Times are made relative per SM
// (each SM has its own clock). L2 is scrubbed before every sample (a 256 MiB
// buffer is written), so the loads go to DRAM. Per point: the per-warp
// latency distribution in cycles and ns (SM clock from the clock64 and
// globaltimer spans of the same warps) and the gap between a block's end and
// the next block's start on an SM. The first 512 warps of each of the 4 lowest
// SMs of the last sample are kept raw in the record's context (timeline_warps).
#include <algorithm>
#include <initializer_list>
#include <map>
#include <memory>
#include <vector>

#include "core/error.hpp"
#include "methods/cuda/common/cuda_check.hpp"
#include "methods/cuda/common/graph_queries.hpp"
#include "methods/cuda/common/session_common.hpp"
#include "methods/cuda/gpumem/gpumem_common.hpp"
#include "methods/cuda/gpumem/gpumem_methods.hpp"
#include "methods/gpumem/gpumem_model.hpp"

namespace hwcomm::cuda::gpumem {

namespace {

constexpr std::uint64_t kTimelineFootprint = std::uint64_t{64} << 20;
constexpr std::size_t kScrubBytes = std::size_t{256} << 20;
constexpr std::size_t kRawWarps = 2048;
constexpr std::size_t kRawSms = 4;

// Order statistics of v at ascending qs, v reordered in place: each
// nth_element works on what lies above the previous one (a copy and a full
// selection per quantile were 30 ms per sample for 512 Ki warps).
std::vector<double> quantiles_in_place(std::vector<double>& v, std::initializer_list<double> qs) {
    std::vector<double> out;
    auto from = v.begin();
    for (double q : qs) {
        if (v.empty()) {
            out.push_back(0);
            continue;
        }
        const auto at = v.begin() + static_cast<std::ptrdiff_t>(q * static_cast<double>(v.size() - 1));
        if (at >= from) std::nth_element(from, at, v.end());
        out.push_back(*at);
        from = at;
    }
    return out;
}

// SM clock in GHz: clock64 cycles over globaltimer ns of each SM's whole span,
// summed over SMs. Per SM in a vector indexed by its id (a map lookup per warp
// was a good part of the untimed work per sample: 512 Ki warps at 4 bytes).
double sm_clock_ghz(const std::vector<WarpClock>& w) {
    struct Span {
        unsigned long long start = ~0ull, gstart = ~0ull, stop = 0, gstop = 0;
    };
    unsigned max_sm = 0;
    for (const auto& r : w) max_sm = std::max(max_sm, r.sm);
    std::vector<Span> span(w.empty() ? 0 : std::size_t{max_sm} + 1);
    for (const auto& r : w) {
        Span& s = span[r.sm];
        s.start = std::min(s.start, r.start);
        s.gstart = std::min(s.gstart, r.gstart);
        s.stop = std::max(s.stop, r.stop);
        s.gstop = std::max(s.gstop, r.gstop);
    }
    double cycles = 0, ns = 0;
    for (const Span& s : span) {
        if (s.start == ~0ull) continue;  // no warp ran on this SM
        cycles += static_cast<double>(s.stop - s.start);
        ns += static_cast<double>(s.gstop - s.gstart);
    }
    return ns > 0 ? cycles / ns : 0;
}

class TimelineSession final : public TransferSession {
public:
    TimelineSession(const Graph& graph, const Vertex& gpu, const SizeCap& cap, const MethodOptions& options)
        : exec_(cuda_ordinal(gpu)), facts_(gpu_mem_facts(exec_)), timer_(exec_, options.timing), data_(exec_, cap.buffer_bytes),
          scrub_(exec_, kScrubBytes), clocks_(exec_, (cap.buffer_bytes / 4 + 31) / 32 * sizeof(WarpClock)) {
        ScopedDevice on(exec_);
        HWCOMM_CUDA_CHECK(cudaMemset(data_.data(), 0, data_.size()));
        context_["timing_mode"] = to_string(options.timing);
        context_.update(base_context(graph, {&gpu}, cap, options));
        context_["gpumem"] = to_json(facts_);
        context_["kernel"] = {{"how", "one element per thread; lane 0 records clock64 and globaltimer around the "
                                      "warp's load, waited for by a branch on the value"},
                              {"l2", "scrubbed before every sample: 256 MiB written"},
                              {"raw", "timeline_warps: first 512 warps (by start) of each of the 4 lowest SMs, last sample"}};
        context_["timeline_warps"] = nlohmann::json::array();
    }
    void set_axes(const std::map<std::string, nlohmann::json>& values) override {
        element_ = values.at("element_bytes").get<int>();
        warps_per_block_ = values.at("warps_per_block").get<int>();
    }
    void warmup(std::size_t bytes, const std::string&) override { launch(bytes); }
    void reset(std::size_t, const std::string&) override {
        ScopedDevice on(exec_);
        HWCOMM_CUDA_CHECK(cudaMemsetAsync(scrub_.data(), 0x5a, scrub_.size(), timer_.stream()));
        HWCOMM_CUDA_CHECK(cudaMemsetAsync(clocks_.data(), 0xff, clocks_.size(), timer_.stream()));
        timer_.synchronize();
    }
    Sample measure(std::size_t bytes, const std::string&) override {
        Sample s;
        s.seconds = launch(bytes);
        s.bytes_per_rep = static_cast<double>(elements_of(bytes, element_) * element_);
        // Reused across samples: a fresh 25 MB vector per sample was zeroed and faulted in each time.
        std::vector<WarpClock>& w = host_clocks_;
        w.resize((elements_of(bytes, element_) + 31) / 32);
        {
            ScopedDevice on(exec_);
            HWCOMM_CUDA_CHECK(cudaMemcpy(w.data(), clocks_.data(), w.size() * sizeof(WarpClock), cudaMemcpyDeviceToHost));
        }
        missing_ = static_cast<std::size_t>(std::count_if(w.begin(), w.end(), [](const WarpClock& c) { return c.sm == ~0u; }));
        if (missing_) return s;  // verify() reports it
        const double ghz = sm_clock_ghz(w);
        std::vector<hwcomm::gpumem::WarpRecord> r(w.size());
        for (std::size_t i = 0; i < w.size(); ++i) r[i] = {w[i].sm, w[i].block, w[i].warp, w[i].start, w[i].stop};
        hwcomm::gpumem::make_relative_per_sm(r);
        std::vector<double> lat(r.size());
        for (std::size_t i = 0; i < r.size(); ++i) lat[i] = static_cast<double>(r[i].stop - r[i].start);
        std::vector<double> gaps = hwcomm::gpumem::block_gaps(r);
        const std::vector<double> q = quantiles_in_place(lat, {0.1, 0.5, 0.9, 1.0});
        s.metrics["warp_latency_cycles_median"] = {q[1], "cycles"};
        s.metrics["warp_latency_cycles_p10"] = {q[0], "cycles"};
        s.metrics["warp_latency_cycles_p90"] = {q[2], "cycles"};
        s.metrics["warp_latency_cycles_max"] = {q[3], "cycles"};
        if (ghz > 0) s.metrics["warp_latency_ns_median"] = {q[1] / ghz, "ns"};
        s.metrics["sm_clock_mhz"] = {ghz * 1e3, "MHz"};
        if (!gaps.empty()) s.metrics["block_gap_cycles_median"] = {quantiles_in_place(gaps, {0.5})[0], "cycles"};
        s.metrics["warps"] = {static_cast<double>(r.size()), "warps"};
        keep_raw(r);
        return s;
    }
    std::string verify(std::size_t, const std::string&) override {
        return missing_ ? std::to_string(missing_) + " warps wrote no record" : "";
    }
    nlohmann::json context() const override {
        nlohmann::json c = context_;
        for (const auto& [key, kept] : raw_) {
            nlohmann::json j{{"element_bytes", key.first}, {"warps_per_block", key.second},
                             {"unit", "cycles, relative to each SM's earliest warp"}};
            for (const char* column : {"sm", "block", "warp", "start", "stop"}) j[column] = nlohmann::json::array();
            for (const auto& x : kept) {
                j["sm"].push_back(x.sm);
                j["block"].push_back(x.block);
                j["warp"].push_back(x.warp);
                j["start"].push_back(x.start);
                j["stop"].push_back(x.stop);
            }
            c["timeline_warps"].push_back(std::move(j));
        }
        return c;
    }
    std::size_t max_bytes() const override { return data_.size(); }

private:
    double launch(std::size_t bytes) {
        return timer_.time([&](cudaStream_t s) {
            launch_timeline(s, data_.data(), elements_of(bytes, element_), element_, warps_per_block_,
                            reinterpret_cast<WarpClock*>(clocks_.data()));
        });
    }
    // Columns, not one object per warp (built in context()): the first
    // kRawWarps / kRawSms warps by start of each of the kRawSms lowest SMs, so
    // a drawing coloured by SM shows several SMs' warps side by side, as the
    // study's figures do. Only the last sample's are kept.
    void keep_raw(const std::vector<hwcomm::gpumem::WarpRecord>& r) {
        raw_[{element_, warps_per_block_}] =
            hwcomm::gpumem::first_warps_of_lowest_sms(r, kRawSms, kRawWarps / kRawSms);
    }
    int exec_;
    GpuMemFacts facts_;
    KernelTimer timer_;
    DeviceBuffer data_;
    DeviceBuffer scrub_;
    DeviceBuffer clocks_;
    int element_ = 4, warps_per_block_ = 2;
    std::size_t missing_ = 0;
    std::vector<WarpClock> host_clocks_;
    std::map<std::pair<int, int>, std::vector<hwcomm::gpumem::WarpRecord>> raw_;
    nlohmann::json context_;
};

class TimelineMethod final : public OnGpuCharacterizer<TimelineSession> {
public:
    TimelineMethod() : OnGpuCharacterizer(kTimelineFootprint) {}
    std::string name() const override { return "gpumem-timeline"; }
    std::string description() const override {
        return "per-warp latency of one load per thread over 64 MiB (cold L2): SM clock before and after, per SM";
    }
    std::vector<AxisSpec> axes() const override {
        return {{"element_bytes", {4, 16}, "bytes", "bytes loaded per thread (float, float4)"},
                {"warps_per_block", {2, 4, 8, 16, 32}, "warps", "warps in one thread block"}};
    }
};

}  // namespace

std::unique_ptr<Characterizer> make_gpumem_timeline() { return std::make_unique<TimelineMethod>(); }

void register_gpumem_methods(Registry& registry) {
    registry.add(make_gpumem_timeline());
    registry.add(make_gpumem_occupancy());
    registry.add(make_gpumem_stride());
    registry.add(make_gpumem_latency());
    registry.add(make_tma_latency());
    registry.add(make_loaded_latency());
}

}  // namespace hwcomm::cuda::gpumem
