// mpi-gpu buffers (CUDA builds): device memory for both directions, pinned
// host memory for staging (path=staged) and for the untimed pattern work.
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "core/error.hpp"
#include "methods/cpu/pattern.hpp"
#include "methods/mpi/transfer_buffers.hpp"

namespace hwcomm {

namespace {

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw MeasurementError(std::string(what) + ": " + cudaGetErrorString(e));
}

struct DeviceMemory {
    void* p = nullptr;
    explicit DeviceMemory(std::size_t bytes) { check(cudaMalloc(&p, bytes), "cudaMalloc"); }
    ~DeviceMemory() { if (p) cudaFree(p); }
    DeviceMemory(const DeviceMemory&) = delete;
    DeviceMemory& operator=(const DeviceMemory&) = delete;
};

struct PinnedMemory {
    void* p = nullptr;
    explicit PinnedMemory(std::size_t bytes) { check(cudaMallocHost(&p, bytes), "cudaMallocHost"); }
    ~PinnedMemory() { if (p) cudaFreeHost(p); }
    PinnedMemory(const PinnedMemory&) = delete;
    PinnedMemory& operator=(const PinnedMemory&) = delete;
    std::byte* bytes() { return static_cast<std::byte*>(p); }
};

int select(int ordinal) {
    check(cudaSetDevice(ordinal), "cudaSetDevice");
    return ordinal;
}

class GpuBuffers final : public TransferBuffers {
public:
    GpuBuffers(int ordinal, std::size_t bytes, bool staged)
        : ordinal_(select(ordinal)), bytes_(std::max<std::size_t>(bytes, 1)), staged_(staged),
          send_(bytes_), recv_(bytes_), host_send_(bytes_), host_recv_(bytes_) {}
    // Staged: MPI moves pinned host memory; the device copies around it are timed.
    void* send_data() override { return staged_ ? host_send_.p : send_.p; }
    void* recv_data() override { return staged_ ? host_recv_.p : recv_.p; }
    void before_send(std::size_t bytes) override {
        if (staged_) check(cudaMemcpy(host_send_.p, send_.p, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy D2H (staging)");
    }
    void after_recv(std::size_t bytes) override {
        if (staged_) check(cudaMemcpy(recv_.p, host_recv_.p, bytes, cudaMemcpyHostToDevice), "cudaMemcpy H2D (staging)");
    }
    void fill_send(std::size_t bytes, std::uint64_t seed) override {
        fill_pattern(host_send_.bytes(), bytes, seed);
        check(cudaMemcpy(send_.p, host_send_.p, bytes, cudaMemcpyHostToDevice), "cudaMemcpy (pattern)");
        poison(host_send_.bytes(), bytes, seed);  // staging must copy the device's bytes, not find them there
    }
    void poison_recv(std::size_t bytes, std::uint64_t expected_seed) override {
        poison(host_recv_.bytes(), bytes, expected_seed);
        check(cudaMemcpy(recv_.p, host_recv_.p, bytes, cudaMemcpyHostToDevice), "cudaMemcpy (poison)");
    }
    std::string check_recv(std::size_t bytes, std::uint64_t seed) override {
        std::vector<std::byte> copy(bytes);
        check(cudaMemcpy(copy.data(), recv_.p, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy (verify)");
        return pattern_mismatch(copy.data(), bytes, seed);
    }
    std::size_t capacity() const override { return bytes_; }
    nlohmann::json context() const override {
        return {{"memory", "cuda_device"}, {"cuda_ordinal", ordinal_}, {"path", staged_ ? "staged" : "cuda-aware"}};
    }

private:
    int ordinal_;
    std::size_t bytes_;
    bool staged_;
    DeviceMemory send_, recv_;
    PinnedMemory host_send_, host_recv_;
};

}  // namespace

std::unique_ptr<TransferBuffers> make_gpu_buffers(int ordinal, std::size_t bytes, bool staged) {
    return std::make_unique<GpuBuffers>(ordinal, bytes, staged);
}

}  // namespace hwcomm
