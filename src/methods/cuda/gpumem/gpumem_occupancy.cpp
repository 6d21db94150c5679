// gpumem-occupancy: achieved DRAM read bandwidth against resident warps per SM
// (1 to the maximum), for float, float2 and float4 loads with 1, 2 or 4
// independent loads in flight per thread, over 1 GiB (far larger than L2).
// Each point carries its Little's-law bound: resident warps x bytes in flight
// per warp / latency, capped at the theoretical DRAM bandwidth (memory clock x
// 2 x bus width). The latency is the GPU's unloaded DRAM latency, measured
// once by pointer chase over the same 1 GiB when the record is prepared.
#include <memory>

#include "core/error.hpp"
#include "methods/cuda/common/cuda_check.hpp"
#include "methods/cuda/common/graph_queries.hpp"
#include "methods/cuda/common/session_common.hpp"
#include "methods/cuda/gpumem/gpumem_common.hpp"
#include "methods/cuda/gpumem/gpumem_methods.hpp"
#include "methods/gpumem/gpumem_model.hpp"

namespace hwcomm::cuda::gpumem {

namespace {

constexpr std::uint64_t kOccupancyFootprint = std::uint64_t{1} << 30;

// Blocks and threads that put `warps_per_sm` warps on every SM at once: one
// block per SM up to 32 warps (1024 threads), two per SM above.
struct Launch {
    int blocks = 0;
    int threads = 0;
};
Launch launch_for(int warps_per_sm, int sm_count) {
    if (warps_per_sm <= 32) return {sm_count, warps_per_sm * 32};
    return {2 * sm_count, warps_per_sm * 16};
}

class OccupancySession final : public TransferSession {
public:
    OccupancySession(const Graph& graph, const Vertex& gpu, const SizeCap& cap, const MethodOptions& options)
        : exec_(cuda_ordinal(gpu)), facts_(gpu_mem_facts(exec_)), timer_(exec_, options.timing), counter_(exec_),
          data_(exec_, cap.buffer_bytes) {
        // The latency of the bound: a chase over the whole buffer, before it is zeroed for the reads.
        PointerChase chase(exec_, reinterpret_cast<unsigned long long*>(data_.data()), data_.size());
        chase.lay_out(data_.size(), timer_);
        chase.warm(1u << 14, timer_);  // TLBs, clocks up
        latency_ns_ = chase.run(1u << 14, timer_).ns_per_load;
        if (!(latency_ns_ > 0)) throw MeasurementError("the latency chase measured no time");
        ScopedDevice on(exec_);
        HWCOMM_CUDA_CHECK(cudaMemset(data_.data(), 0, data_.size()));
        context_["timing_mode"] = to_string(options.timing);
        context_.update(base_context(graph, {&gpu}, cap, options));
        context_["gpumem"] = to_json(facts_);
        context_["littles_law"] = {
            {"latency_ns", latency_ns_},
            {"latency_from", "pointer chase, one thread, unloaded, over the read buffer"},
            {"bytes_in_flight_for_peak", hwcomm::gpumem::bytes_in_flight_needed(latency_ns_, facts_.theoretical_gbps)},
            {"bound", "min(theoretical DRAM GB/s, SMs x warps_per_sm x 32 x element_bytes x ilp / latency_ns)"}};
        context_["kernel"] = {{"how", "grid-stride reads, ilp independent loads per thread per iteration"},
                              {"grid", "1 block of 32 x warps_per_sm threads per SM (2 blocks per SM above 32 warps)"}};
    }
    void set_axes(const std::map<std::string, nlohmann::json>& values) override {
        element_ = values.at("element_bytes").get<int>();
        ilp_ = values.at("ilp").get<int>();
        warps_ = values.at("warps_per_sm").get<int>();
    }
    // A point the GPU cannot hold is an error point (in warmup, so the record goes on with the next).
    void warmup(std::size_t bytes, const std::string&) override {
        check_resident();
        launch(bytes);
    }
    void reset(std::size_t, const std::string&) override {
        counter_.zero(timer_.stream());
        timer_.synchronize();
    }
    Sample measure(std::size_t bytes, const std::string&) override {
        Sample s;
        s.seconds = launch(bytes);
        s.bytes_per_rep = static_cast<double>(elements_of(bytes, element_) * element_);
        const double warps = static_cast<double>(warps_) * facts_.sm_count;
        const double in_flight = 32.0 * element_ * ilp_;
        const double bound = hwcomm::gpumem::littles_law_bound_gbps(warps, in_flight, latency_ns_, facts_.theoretical_gbps);
        s.metrics["littles_law_bound_gbps"] = {bound, "GB/s"};
        s.metrics["bytes_in_flight_per_warp"] = {in_flight, "bytes"};
        s.metrics["resident_warps"] = {warps, "warps"};
        s.metrics["latency_ns"] = {latency_ns_, "ns"};
        s.metrics["theoretical_dram_gbps"] = {facts_.theoretical_gbps, "GB/s"};
        s.metrics["latency_bound"] = {
            hwcomm::gpumem::latency_bound(warps, in_flight, latency_ns_, facts_.theoretical_gbps) ? 1.0 : 0.0, "flag"};
        return s;
    }
    std::string verify(std::size_t bytes, const std::string&) override {
        const unsigned long long read = counter_.read();
        const std::uint64_t n = elements_of(bytes, element_);
        return read == n ? "" : "the kernel read " + std::to_string(read) + " elements of " + std::to_string(n);
    }
    nlohmann::json context() const override { return context_; }
    std::size_t max_bytes() const override { return data_.size(); }

private:
    void check_resident() const {
        if (warps_ > facts_.max_warps_per_sm)
            throw MeasurementError(std::to_string(warps_) + " warps per SM: this GPU holds at most " +
                                   std::to_string(facts_.max_warps_per_sm));
        const Launch l = launch_for(warps_, facts_.sm_count);
        ScopedDevice on(exec_);
        const int fit = read_kernel_blocks_per_sm(element_, ilp_, l.threads);
        if (fit * l.threads < warps_ * 32)
            throw MeasurementError(std::to_string(warps_) + " warps per SM: only " + std::to_string(fit) +
                                   " block(s) of " + std::to_string(l.threads) + " threads fit on an SM");
    }
    double launch(std::size_t bytes) {
        const Launch l = launch_for(warps_, facts_.sm_count);
        return timer_.time([&](cudaStream_t s) {
            launch_read(s, data_.data(), elements_of(bytes, element_) * element_, element_, ilp_, l.blocks, l.threads, counter_.get());
        });
    }
    int exec_;
    GpuMemFacts facts_;
    KernelTimer timer_;
    DeviceCounter counter_;
    DeviceBuffer data_;
    double latency_ns_ = 0;
    int element_ = 4, ilp_ = 1, warps_ = 1;
    nlohmann::json context_;
};

class OccupancyMethod final : public OnGpuCharacterizer<OccupancySession> {
public:
    OccupancyMethod() : OnGpuCharacterizer(kOccupancyFootprint) {}
    std::string name() const override { return "gpumem-occupancy"; }
    std::string description() const override {
        return "DRAM read bandwidth against resident warps per SM, element size and loads in flight, with the "
               "Little's-law bound of each point";
    }
    std::vector<AxisSpec> axes() const override {
        return {{"element_bytes", {4, 8, 16}, "bytes", "bytes per load (float, float2, float4)"},
                {"ilp", {1, 2, 4}, "loads", "independent loads in flight per thread"},
                {"warps_per_sm", {1, 2, 4, 8, 16, 24, 32, 48, 64}, "warps", "resident warps on every SM"}};
    }
};

}  // namespace

std::unique_ptr<Characterizer> make_gpumem_occupancy() { return std::make_unique<OccupancyMethod>(); }

}  // namespace hwcomm::cuda::gpumem
