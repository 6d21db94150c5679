#include "methods/cuda/faults/vanishing_session.hpp"

#include <string>

#include "methods/cuda/common/cuda_check.hpp"

namespace hwcomm::cuda {

void VanishingSession::fail_if_gone(std::size_t bytes, const char* call) {
    if (bytes >= plan_.from_bytes) gone_ = true;
    if (gone_) throw_cuda_error(plan_.error, call, __FILE__, __LINE__);
}

void VanishingSession::warmup(std::size_t bytes, const std::string& variant) {
    fail_if_gone(bytes, "warm-up copy (test seam: the GPU is gone)");
    inner_->warmup(bytes, variant);
}

void VanishingSession::reset(std::size_t bytes, const std::string& variant) {
    fail_if_gone(bytes, "pattern reset (test seam: the GPU is gone)");
    inner_->reset(bytes, variant);
}

Sample VanishingSession::measure(std::size_t bytes, const std::string& variant) {
    fail_if_gone(bytes, "timed copy (test seam: the GPU is gone)");
    return inner_->measure(bytes, variant);
}

std::string VanishingSession::verify(std::size_t bytes, const std::string& variant) {
    fail_if_gone(bytes, "verification (test seam: the GPU is gone)");
    return inner_->verify(bytes, variant);
}

void VanishingSession::set_axes(const std::map<std::string, nlohmann::json>& values) {
    if (gone_) throw_cuda_error(plan_.error, "set_axes (test seam: the GPU is gone)", __FILE__, __LINE__);
    inner_->set_axes(values);
}

nlohmann::json VanishingSession::context() const {
    nlohmann::json c = inner_->context();
    c["test_fault"] = "the GPU vanishes from " + std::to_string(plan_.from_bytes) + " bytes on: every call fails with " +
                      cudaGetErrorName(plan_.error);
    return c;
}

}  // namespace hwcomm::cuda
