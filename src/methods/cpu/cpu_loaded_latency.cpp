// cpu-loaded-latency: the load latency of one core of the source node into
// memory on the destination node while n other cores of the source node
// stream reads from that same memory (Intel MLC's loaded latency). Axis
// load_workers: 0 (idle), 1, 2, 4, ... and "all" the other cores. Each point
// keeps the chase's latency and the bandwidth the load workers drew during
// the chase: the latency-against-bandwidth curve of the memory.
#include <algorithm>
#include <atomic>
#include <memory>
#include <vector>

#include "catalog/method_names.hpp"
#include "core/error.hpp"
#include "methods/cpu/bound_parallel.hpp"
#include "methods/cpu/cpu_methods.hpp"
#include "methods/cpu/cpu_session.hpp"
#include "methods/cpu/numa_pair_method.hpp"
#include "methods/cpu/pointer_chase.hpp"
#include "platform/clock.hpp"

namespace hwcomm {

namespace {

constexpr double kLoadedSampleSeconds = 10e-3;  // one sample under load lasts about this long
constexpr std::size_t kLoadBlock = std::size_t{64} << 10;  // bytes read between two looks at the stop flag
// Load workers run this long before the chase starts, so it sees the load at its level.
constexpr double kRampSeconds = 1e-3;

struct alignas(64) LoadCounter {
    std::atomic<std::uint64_t> blocks{0};
    std::uint64_t sink = 0;
};

// The number of load workers an axis value means on a node with `slots` places: nullopt when it does not apply.
std::optional<unsigned> load_workers_of(const nlohmann::json& value, unsigned slots) {
    const unsigned others = slots > 0 ? slots - 1 : 0;
    if (value.is_string() && value.get<std::string>() == "all") return others > 0 ? std::optional<unsigned>(others) : std::nullopt;
    if (value.is_number_unsigned() || value.is_number_integer()) {
        const auto n = value.get<std::int64_t>();
        if (n == 0) return 0u;
        if (n > 0 && static_cast<unsigned>(n) < others) return static_cast<unsigned>(n);  // == others is "all"
    }
    return std::nullopt;
}

class LoadedLatencySession : public CpuSession {
public:
    LoadedLatencySession(int src, int dst, std::size_t max_bytes, const MethodOptions& options)
        : CpuSession(max_bytes, src, options.values.flag("smt")),
          chase_buffer_(topo_, dst, std::max<std::size_t>(max_bytes, 4096),
                        BufferOptions{.huge_pages = true, .touch_later = true}),
          load_buffer_(topo_, dst, std::max<std::size_t>(max_bytes, 4096), BufferOptions{.touch_later = true}),
          max_workers_(capped_workers(options.max_workers)) {
        if (slot_count() == 0) throw MeasurementError("NUMA node " + std::to_string(src) + " has no core to run the chase");
        first_touch(chase_buffer_);
        first_touch(load_buffer_);
        note_buffer("chase_buffer", chase_buffer_);
        note_buffer("load_buffer", load_buffer_);
        counters_ = std::vector<LoadCounter>(max_workers_);
        context_["chase"] = {{"how", "worker 0 chases one random cycle through every 64-byte line of the working "
                                     "set while workers 1..n read their own chunks of a second buffer of the same "
                                     "size on the same node, over and over"},
                             {"load_kernel", std::string("read (") + to_string(kernels().isa) + ")"},
                             {"load_gbps", "bytes the load workers read during the chase / the chase's time"},
                             {"ramp_s", kRampSeconds}};
        const std::uint64_t llc = caches().llc;
        context_["largest_working_set_vs_llc"] = llc ? static_cast<double>(max_bytes) / static_cast<double>(llc) : 0.0;
    }
    bool axes_apply(const std::map<std::string, nlohmann::json>& values) const override {
        const auto it = values.find("load_workers");
        return it == values.end() || load_workers_of(it->second, max_workers_).has_value();
    }
    void set_axes(const std::map<std::string, nlohmann::json>& values) override {
        const auto it = values.find("load_workers");
        const auto n = it == values.end() ? std::optional<unsigned>(0) : load_workers_of(it->second, max_workers_);
        if (!n) throw MeasurementError("load_workers " + it->second.dump() + " does not fit this node's cores");
        load_workers_ = *n;
    }
    void warmup(std::size_t bytes, const std::string&) override {
        lay_out(bytes);
        sample(65536);
        const auto [seconds, load] = sample(PointerChase::kMinSteps);
        (void)load;
        steps_ = PointerChase::calibrated_steps(seconds / static_cast<double>(PointerChase::kMinSteps), kLoadedSampleSeconds);
    }
    Sample measure(std::size_t bytes, const std::string&) override {
        lay_out(bytes);
        const auto [seconds, load_bytes] = sample(steps_);
        Sample s;
        s.seconds = seconds;
        s.bytes_per_rep = static_cast<double>(steps_ * 8);
        s.metrics["latency_ns"] = {seconds / static_cast<double>(steps_) * 1e9, "ns"};
        s.metrics["load_gbps"] = {seconds > 0 ? load_bytes / seconds / 1e9 : 0.0, "GB/s"};
        s.metrics["load_workers"] = {static_cast<double>(load_workers_), "count"};
        return s;
    }
    std::string verify(std::size_t, const std::string&) override { return chase_.check(); }

protected:
    void write_pattern(std::size_t, std::uint64_t) override {}
    double run_timed(std::size_t, const std::string&, std::size_t) override { return sample(steps_).first; }

private:
    void lay_out(std::size_t bytes) {
        if (bytes == laid_out_) return;
        chase_.lay_out(chase_buffer_.data(), bytes, 0x10ADu + bytes);
        laid_out_ = bytes;
    }
    // The chase's seconds and the bytes the load workers read meanwhile.
    std::pair<double, double> sample(std::uint64_t steps) {
        const unsigned n = load_workers_;
        std::atomic<unsigned> ready{0};
        std::atomic<bool> stop{false};
        double seconds = 0, loaded = 0;
        const std::size_t load_bytes = laid_out_;
        const auto read_sum = kernels().read_sum;
        for (auto& c : counters_) c.blocks.store(0, std::memory_order_relaxed);
        run_workers(n + 1, 1, [&](unsigned rank, unsigned) {
            if (rank == 0) {
                while (ready.load(std::memory_order_acquire) < n) {}
                const double ramp_end = steady_seconds() + (n > 0 ? kRampSeconds : 0);
                while (steady_seconds() < ramp_end) {}
                std::uint64_t before = 0, after = 0;
                for (unsigned i = 0; i < n; ++i) before += counters_[i].blocks.load(std::memory_order_relaxed);
                seconds = chase_.run(steps);
                for (unsigned i = 0; i < n; ++i) after += counters_[i].blocks.load(std::memory_order_relaxed);
                stop.store(true, std::memory_order_release);
                loaded = static_cast<double>(after - before) * static_cast<double>(kLoadBlock);
                return;
            }
            LoadCounter& mine = counters_[rank - 1];
            const auto [b, e] = line_chunk(load_bytes / kLoadBlock * kLoadBlock, rank - 1, n);
            const std::size_t begin = b / kLoadBlock * kLoadBlock, end = e / kLoadBlock * kLoadBlock;
            ready.fetch_add(1, std::memory_order_release);
            if (end <= begin) return;  // a working set too small to share: this worker adds no load
            const auto* words = reinterpret_cast<const std::uint64_t*>(load_buffer_.data());
            std::uint64_t sink = 0, blocks = 0;
            for (std::size_t at = begin; !stop.load(std::memory_order_relaxed); at = at + kLoadBlock >= end ? begin : at + kLoadBlock) {
                sink += read_sum(words + at / 8, kLoadBlock / 8);
                mine.blocks.store(++blocks, std::memory_order_relaxed);
            }
            mine.sink = sink;
        });
        return {seconds, loaded};
    }

    NumaBuffer chase_buffer_, load_buffer_;
    unsigned max_workers_;
    std::vector<LoadCounter> counters_;
    PointerChase chase_;
    std::size_t laid_out_ = 0;
    unsigned load_workers_ = 0;
    std::uint64_t steps_ = PointerChase::kMinSteps;
};

class LoadedLatency final : public NumaPairMethod {
public:
    std::string name() const override { return method_name::kCpuLoadedLatency; }
    std::string description() const override {
        return "load latency of the source node's first core into memory on the destination node while n other "
               "cores of the source node read that memory (axis load_workers; working set = the largest size)";
    }
    std::vector<AxisSpec> axes() const override {
        std::vector<nlohmann::json> values{0, 1, 2, 4, 8, 16, 32, 64, 128, "all"};
        return {{"load_workers", values, "cores",
                 "cores of the source node streaming reads beside the chase; 'all': every other core "
                 "(numbers at or above that are skipped)"}};
    }
    SizePolicy size_policy() const override { return {.alignment = 64, .min_bytes = 4096, .largest_only = true}; }
    std::unique_ptr<TransferSession> prepare(const Graph&, const Vertex& src, const Vertex& dst, const ParamSet&,
                                             std::size_t max_bytes, const MethodOptions& options) const override {
        return std::make_unique<LoadedLatencySession>(numa_index_of(src), numa_index_of(dst), max_bytes, options);
    }

protected:
    CpuEnd cpu_end() const override { return CpuEnd::Src; }
};

}  // namespace

std::unique_ptr<Characterizer> make_cpu_loaded_latency() { return std::make_unique<LoadedLatency>(); }

}  // namespace hwcomm
