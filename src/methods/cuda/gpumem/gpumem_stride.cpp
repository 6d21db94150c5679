// gpumem-stride: a[(stride x i) % n] for i in [0, n) over a 1 GiB array in the
// GPU's own memory, 4- and 16-byte elements, strides 1..128. Effective
// bandwidth counts the n elements' bytes; the sectors are the theory
// (gpumem_model: 32-byte sectors per warp request), which Nsight Compute's
// l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum would confirm (not run here).
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

constexpr std::uint64_t kStrideFootprint = std::uint64_t{1} << 30;

class StrideSession final : public TransferSession {
public:
    StrideSession(const Graph& graph, const Vertex& gpu, const SizeCap& cap, const MethodOptions& options)
        : exec_(cuda_ordinal(gpu)), facts_(gpu_mem_facts(exec_)), timer_(exec_, options.timing), counter_(exec_),
          data_(exec_, cap.buffer_bytes) {
        ScopedDevice on(exec_);
        HWCOMM_CUDA_CHECK(cudaMemset(data_.data(), 0, data_.size()));
        context_["timing_mode"] = to_string(options.timing);
        context_.update(base_context(graph, {&gpu}, cap, options));
        context_["gpumem"] = to_json(facts_);
        context_["kernel"] = {{"how", "a[(stride * i) % n], i in [0, n), grid-stride, index advanced by additions"},
                              {"grid", "4 x SMs blocks of 512 threads"},
                              {"sectors", "theory: 32-byte sectors per warp request (docs/gpumem.md)"},
                              {"ncu", "not measured: hwcomm does not run Nsight Compute"}};
    }
    void set_axes(const std::map<std::string, nlohmann::json>& values) override {
        element_ = values.at("element_bytes").get<int>();
        stride_ = values.at("stride").get<std::uint64_t>();
    }
    void warmup(std::size_t bytes, const std::string&) override { launch(bytes); }
    void reset(std::size_t, const std::string&) override {
        counter_.zero(timer_.stream());
        timer_.synchronize();
    }
    Sample measure(std::size_t bytes, const std::string&) override {
        const std::uint64_t n = elements_of(bytes, element_);
        Sample s;
        s.seconds = launch(bytes);
        s.bytes_per_rep = static_cast<double>(n * element_);
        const auto per_request = hwcomm::gpumem::sectors_per_warp_request(stride_, element_);
        const auto sectors = hwcomm::gpumem::strided_sectors(n, stride_, element_);
        s.metrics["sectors_per_request_theory"] = {static_cast<double>(per_request), "sectors"};
        s.metrics["sectors_theory"] = {static_cast<double>(sectors), "sectors"};
        s.metrics["sector_gbps_theory"] = {static_cast<double>(sectors) * 32 / s.seconds / 1e9, "GB/s"};
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
    double launch(std::size_t bytes) {
        return timer_.time([&](cudaStream_t s) {
            launch_strided(s, data_.data(), elements_of(bytes, element_), stride_, element_, facts_.sm_count * kStrideBlocksPerSm, kStrideThreads,
                           counter_.get());
        });
    }
    int exec_;
    GpuMemFacts facts_;
    KernelTimer timer_;
    DeviceCounter counter_;
    DeviceBuffer data_;
    int element_ = 4;
    std::uint64_t stride_ = 1;
    nlohmann::json context_;
};

class StrideMethod final : public OnGpuCharacterizer<StrideSession> {
public:
    StrideMethod() : OnGpuCharacterizer(kStrideFootprint) {}
    std::string name() const override { return "gpumem-stride"; }
    std::string description() const override {
        return "strided loads a[(stride*i) % n] over 1 GiB of the GPU's memory: effective bandwidth and "
               "32-byte sectors per warp request";
    }
    std::vector<AxisSpec> axes() const override {
        return {{"element_bytes", {4, 16}, "bytes", "size of one loaded element (float, float4)"},
                {"stride", {1, 2, 4, 8, 16, 32, 64, 128}, "elements", "distance between the elements of neighbouring threads"}};
    }
};

}  // namespace

std::unique_ptr<Characterizer> make_gpumem_stride() { return std::make_unique<StrideMethod>(); }

}  // namespace hwcomm::cuda::gpumem
