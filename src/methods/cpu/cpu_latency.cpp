// cpu-latency: idle load latency from a core of the source node to memory on
// the destination node, by pointer chase (methods/cpu/pointer_chase.hpp) over
// a working set = the point's size: L1, L2, the last-level cache and DRAM as
// it grows (the ladder), and at the largest size, >= 4x the last-level cache,
// the idle latency of the NUMA matrix. The buffer asks for transparent huge
// pages so that the chase measures memory rather than page walks; the record
// says how many bytes really were on huge pages.
#include <algorithm>
#include <memory>

#include "catalog/method_names.hpp"
#include "core/error.hpp"
#include "methods/cpu/bound_parallel.hpp"
#include "methods/cpu/cpu_methods.hpp"
#include "methods/cpu/cpu_session.hpp"
#include "methods/cpu/numa_pair_method.hpp"
#include "methods/cpu/pointer_chase.hpp"

namespace hwcomm {

namespace {

// One sample lasts about this long (chase steps calibrated in warm-up).
constexpr double kSampleSeconds = 5e-3;
constexpr std::uint64_t kWarmLinks = 65536;

class LatencySession : public CpuSession {
public:
    LatencySession(int src, int dst, std::size_t max_bytes, const MethodOptions& options)
        : CpuSession(max_bytes, src, options.values.flag("smt")),
          buffer_(topo_, dst, std::max<std::size_t>(max_bytes, 4096), BufferOptions{.huge_pages = true, .touch_later = true}) {
        if (slot_count() == 0) throw MeasurementError("NUMA node " + std::to_string(src) + " has no core to run the chase");
        first_touch(buffer_);
        note_buffer("chase_buffer", buffer_);
        context_["chase"] = {{"how", "one thread on the node's first core, dependent 8-byte loads along one random "
                                     "cycle through every 64-byte line of the working set"},
                             {"sample_s", kSampleSeconds},
                             {"warmup", "a read of every line in address order when the working set fits the last-level cache, then "
                                        "65536 links (one lap of a smaller cycle)"}};
        const std::uint64_t llc = caches().llc;
        context_["largest_working_set_vs_llc"] = llc ? static_cast<double>(max_bytes) / static_cast<double>(llc) : 0.0;
    }
    void warmup(std::size_t bytes, const std::string&) override {
        lay_out(bytes);
        // A working set the last-level cache may hold is read into it first;
        // then the chase's own links (a lap of a small set) warm the TLB and
        // leave the caches as chasing leaves them.
        if (bytes <= llc_or_assumed()) run_workers(1, 1, [&](unsigned, unsigned) { chase_.touch(); });
        chase(std::min<std::uint64_t>(chase_.lines(), kWarmLinks));
        const double per_link = chase(PointerChase::kMinSteps) / static_cast<double>(PointerChase::kMinSteps);
        steps_ = PointerChase::calibrated_steps(per_link, kSampleSeconds);
    }
    Sample measure(std::size_t bytes, const std::string&) override {
        lay_out(bytes);
        const double seconds = chase(steps_);
        Sample s;
        s.seconds = seconds;
        s.bytes_per_rep = static_cast<double>(steps_ * 8);  // bytes loaded; the latency is the metric
        s.metrics["latency_ns"] = {seconds / static_cast<double>(steps_) * 1e9, "ns"};
        s.metrics["chase_lines"] = {static_cast<double>(chase_.lines()), "count"};
        return s;
    }
    std::string verify(std::size_t, const std::string&) override { return chase_.check(); }

protected:
    // The chain is the data: nothing to refresh between samples, the check is by position.
    void write_pattern(std::size_t, std::uint64_t) override {}
    double run_timed(std::size_t, const std::string&, std::size_t) override { return chase(steps_); }

private:
    void lay_out(std::size_t bytes) {
        if (bytes == laid_out_) return;
        if (bytes > buffer_.size()) throw MeasurementError("working set above the chase buffer");
        chase_.lay_out(buffer_.data(), bytes, 0x5EED0000u + bytes);
        laid_out_ = bytes;
    }
    // The chase on the node's first core; its own clock reads, not the team's.
    double chase(std::uint64_t steps) {
        double seconds = 0;
        run_workers(1, 1, [&](unsigned, unsigned) { seconds = chase_.run(steps); });
        return seconds;
    }

    NumaBuffer buffer_;
    PointerChase chase_;
    std::size_t laid_out_ = 0;
    std::uint64_t steps_ = PointerChase::kMinSteps;
};

}  // namespace

std::unique_ptr<Characterizer> make_cpu_latency() {
    return std::make_unique<PlainNumaPairMethod>(
        method_name::kCpuLatency,
        "idle load latency by pointer chase from the source node's first core into memory on the destination "
        "node (working set = size: L1, L2, last-level cache, DRAM; huge pages asked for)",
        NumaPairMethod::CpuEnd::Src,
        [](int src, int dst, std::size_t max_bytes, const ParamSet&,
           const MethodOptions& options) -> std::unique_ptr<TransferSession> {
            return std::make_unique<LatencySession>(src, dst, max_bytes, options);
        },
        std::vector<ParamSet>{ParamSet{}}, std::map<std::string, std::string>{},
        SizePolicy{.alignment = 64, .min_bytes = 4096});
}

}  // namespace hwcomm
