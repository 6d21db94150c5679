#pragma once
// What the engine does with a failed device call (a DeviceError from the
// methods): the record names the error in context.device_error; a sticky one
// (the context is lost) ends the GPU part of the run: every later record with
// a GPU endpoint is kept as a "not measured" error record naming the loss, and
// a later --resume, in a fresh process, measures those again.
#include <cstddef>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/results.hpp"
#include "run/plan.hpp"

namespace hwcomm {

// error_type of a record the engine did not measure because the device was lost.
inline constexpr const char* kNotMeasuredDeviceLost = "device_lost";

struct DeviceFailure {
    std::string api;         // "cuda"
    std::string error_name;  // "cudaErrorIllegalAddress"
    int code = 0;
    bool context_lost = false;
    std::string message;
};

// The failure when `e` is a DeviceError, else nullopt.
std::optional<DeviceFailure> device_failure_of(const std::exception& e);

// {"api", "name", "code", "context_lost"} for the record's context.
nlohmann::json device_failure_json(const DeviceFailure& f);

// The sticky failure that ended the GPU part, and the record it hit.
struct DeviceLoss {
    DeviceFailure failure;
    std::string record_key;
};

// True when the planned record needs a GPU (one of its endpoints is one):
// such records are not measured after a loss.
bool needs_gpu(const PlannedRecord& planned);

// The error record kept instead of a measurement after the loss.
Record not_measured_record(const PlannedRecord& planned, const DeviceLoss& loss);

// True for such a record: --resume measures it again.
bool is_not_measured(const Record& record);

// Stores a record: appended, or in place of the one under its key (a "not
// measured" record that --resume measured).
void store_record(ResultsFile& results, Record record);

// After a loss: each of `rest` that needs a GPU is stored as "not measured";
// returns how many.
std::size_t keep_gpu_records_not_measured(const std::vector<const PlannedRecord*>& rest, const DeviceLoss& loss,
                                          ResultsFile& results);

// "the CUDA context is lost (cudaErrorIllegalAddress in fault-kernel|gpu0|gpu0): 3 GPU record(s) not measured; ..."
std::string describe_loss(const DeviceLoss& loss, std::size_t records_not_measured);

}  // namespace hwcomm
