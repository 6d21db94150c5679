#pragma once
// A failed call of a device API (today CUDA), thrown by the methods and read
// by the engine without any device header: the API, the error's name
// ("cudaErrorMemoryAllocation") and code, and whether the failure lost the
// device context (a sticky error: every later call in this process fails too,
// so the engine measures no more records on GPUs).
#include <string>
#include <utility>

#include "core/error.hpp"

namespace hwcomm {

class DeviceError : public MeasurementError {
public:
    DeviceError(const std::string& message, std::string api, std::string error_name, int code, bool context_lost)
        : MeasurementError(message),
          api_(std::move(api)),
          error_name_(std::move(error_name)),
          code_(code),
          context_lost_(context_lost) {}
    const std::string& api() const { return api_; }
    const std::string& error_name() const { return error_name_; }
    int code() const { return code_; }
    bool context_lost() const { return context_lost_; }

private:
    std::string api_;
    std::string error_name_;
    int code_;
    bool context_lost_;
};

}  // namespace hwcomm
