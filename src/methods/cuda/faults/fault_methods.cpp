#include "methods/cuda/faults/fault_methods.hpp"

#include <cstdint>
#include <memory>
#include <string>

#include "core/error.hpp"
#include "methods/cuda/common/cuda_check.hpp"
#include "methods/cuda/common/cuda_handles.hpp"
#include "methods/cuda/common/device_info.hpp"
#include "methods/cuda/common/graph_queries.hpp"
#include "methods/cuda/faults/fault_kernel.hpp"
#include "methods/cuda/faults/vanishing_session.hpp"
#include "platform/clock.hpp"

namespace hwcomm::cuda {

namespace {

// A fault method on one GPU against itself: one record per CUDA GPU.
class OneGpuFault : public Characterizer {
public:
    OneGpuFault(std::string name, std::string description)
        : name_(std::move(name)), description_("TEST ONLY: " + std::move(description)) {}
    std::string name() const override { return name_; }
    std::string description() const override { return description_; }
    std::vector<VertexKind> src_kinds() const override { return {VertexKind::Gpu}; }
    std::vector<VertexKind> dst_kinds() const override { return {VertexKind::Gpu}; }
    Applicability applicable(const Graph&, const Vertex& src, const Vertex& dst) const override {
        if (src.id != dst.id) return Applicability::no("a fault method runs on one GPU against itself");
        if (auto why = why_not_cuda_gpu(src); !why.empty()) return Applicability::no(why);
        return Applicability::yes();
    }
    std::vector<ParamSet> parameter_sets(const Graph&, const Vertex&, const Vertex&,
                                         const MethodOptions&) const override {
        return {ParamSet{}};
    }

private:
    std::string name_;
    std::string description_;
};

class FaultAlloc final : public OneGpuFault {
public:
    FaultAlloc() : OneGpuFault("fault-alloc", "prepare asks cudaMalloc for 1 GiB more than the GPU has free") {}
    std::unique_ptr<TransferSession> prepare(const Graph&, const Vertex& gpu, const Vertex&, const ParamSet&,
                                             std::size_t, const MethodOptions&) const override {
        const int ordinal = cuda_ordinal(gpu);
        const DeviceBuffer too_big(ordinal, device_memory(ordinal).free_bytes + (std::size_t{1} << 30));
        throw MeasurementError("internal: cudaMalloc of more than the free memory succeeded on " + gpu.id);
    }
};

class FaultPeer final : public OneGpuFault {
public:
    FaultPeer() : OneGpuFault("fault-peer", "prepare enables peer access from the GPU to itself, which CUDA refuses") {}
    std::unique_ptr<TransferSession> prepare(const Graph&, const Vertex& gpu, const Vertex&, const ParamSet&,
                                             std::size_t, const MethodOptions&) const override {
        const int ordinal = cuda_ordinal(gpu);
        const ScopedDevice on(ordinal);
        HWCOMM_CUDA_CHECK(cudaDeviceEnablePeerAccess(ordinal, 0));
        HWCOMM_CUDA_WARN(cudaDeviceDisablePeerAccess(ordinal));
        throw MeasurementError("internal: CUDA enabled peer access of " + gpu.id + " to itself");
    }
};

// Stores into its own buffer below kFaultFromBytes (wall-clock timed), then
// into an unmapped address: the kernel faults and the context is lost.
class BadAddressSession final : public TransferSession {
public:
    BadAddressSession(int ordinal, std::size_t max_bytes)
        : ordinal_(ordinal), stream_(ordinal), buffer_(ordinal, max_bytes), max_(max_bytes) {}
    void warmup(std::size_t bytes, const std::string&) override { store(bytes); }
    Sample measure(std::size_t bytes, const std::string&) override {
        const double t0 = steady_seconds();
        store(bytes);
        Sample s;
        s.seconds = steady_seconds() - t0;
        s.bytes_per_rep = static_cast<double>(bytes);
        return s;
    }
    std::string verify(std::size_t, const std::string&) override { return ""; }
    nlohmann::json context() const override {
        return {{"test_fault", "a store kernel writes to an unmapped address from " + std::to_string(kFaultFromBytes) +
                                   " bytes on"}};
    }
    std::size_t max_bytes() const override { return max_; }

private:
    void store(std::size_t bytes) {
        // 256 B into the first page: never mapped on the device.
        std::byte* const unmapped = reinterpret_cast<std::byte*>(std::uintptr_t{256});
        const ScopedDevice on(ordinal_);
        launch_store_kernel(stream_.get(), bytes >= kFaultFromBytes ? unmapped : buffer_.data(), bytes, 0x5a);
        stream_.synchronize();
    }
    int ordinal_;
    Stream stream_;
    DeviceBuffer buffer_;
    std::size_t max_;
};

class FaultKernel final : public OneGpuFault {
public:
    FaultKernel()
        : OneGpuFault("fault-kernel", "a store kernel that writes to an unmapped address from 64 KiB on "
                                      "(cudaErrorIllegalAddress: the CUDA context is lost)") {}
    std::unique_ptr<TransferSession> prepare(const Graph&, const Vertex& gpu, const Vertex&, const ParamSet&,
                                             std::size_t max_bytes, const MethodOptions&) const override {
        return std::make_unique<BadAddressSession>(cuda_ordinal(gpu), max_bytes);
    }
};

// memcpy-d2d on one GPU, through VanishingSession.
class FaultVanish final : public OneGpuFault {
public:
    explicit FaultVanish(std::unique_ptr<Characterizer> memcpy_d2d)
        : OneGpuFault("fault-vanish", "memcpy-d2d within the GPU whose calls fail from 64 KiB on as if the GPU fell "
                                      "off the bus (simulated cudaErrorLaunchFailure)"),
          inner_(std::move(memcpy_d2d)) {}
    std::unique_ptr<TransferSession> prepare(const Graph& graph, const Vertex& src, const Vertex& dst,
                                             const ParamSet& params, std::size_t max_bytes,
                                             const MethodOptions& options) const override {
        return std::make_unique<VanishingSession>(inner_->prepare(graph, src, dst, params, max_bytes, options),
                                                  VanishPlan{kFaultFromBytes, cudaErrorLaunchFailure});
    }

private:
    std::unique_ptr<Characterizer> inner_;
};

}  // namespace

void register_fault_methods(Registry& registry, std::unique_ptr<Characterizer> memcpy_d2d) {
    registry.add(std::make_unique<FaultAlloc>());
    registry.add(std::make_unique<FaultPeer>());
    registry.add(std::make_unique<FaultKernel>());
    registry.add(std::make_unique<FaultVanish>(std::move(memcpy_d2d)));
}

}  // namespace hwcomm::cuda
