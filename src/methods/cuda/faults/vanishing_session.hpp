#pragma once
// Test seam: a session that forwards to a real one until the transfer size
// reaches `from_bytes`, then fails every call with `error` as the CUDA calls
// of a GPU that fell off the bus do. The plan lives in the session (no global
// state); the real session underneath stays healthy and releases normally.
#include <cstddef>
#include <memory>

#include <cuda_runtime_api.h>

#include "methods/characterizer.hpp"

namespace hwcomm::cuda {

struct VanishPlan {
    std::size_t from_bytes = 0;
    cudaError_t error = cudaErrorLaunchFailure;  // what work in flight reports on a lost GPU (sticky)
};

class VanishingSession final : public TransferSession {
public:
    VanishingSession(std::unique_ptr<TransferSession> inner, VanishPlan plan)
        : inner_(std::move(inner)), plan_(plan) {}
    std::vector<std::string> variants() const override { return inner_->variants(); }
    void warmup(std::size_t bytes, const std::string& variant) override;
    void reset(std::size_t bytes, const std::string& variant) override;
    Sample measure(std::size_t bytes, const std::string& variant) override;
    std::string verify(std::size_t bytes, const std::string& variant) override;
    std::vector<LaneSpec> lanes() const override { return inner_->lanes(); }
    void set_axes(const std::map<std::string, nlohmann::json>& values) override;
    nlohmann::json context() const override;
    std::size_t max_bytes() const override { return inner_->max_bytes(); }

private:
    // Throws the plan's error once the GPU is "gone" (this size or any later call).
    void fail_if_gone(std::size_t bytes, const char* call);
    std::unique_ptr<TransferSession> inner_;
    VanishPlan plan_;
    bool gone_ = false;
};

}  // namespace hwcomm::cuda
