#pragma once
// One point of a record: per variant, warm-up, then samples under the stopping
// rule, each with its untimed reset before and its data check after; the best
// variant makes the point. A measurement error becomes the point's error.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/results.hpp"
#include "methods/characterizer.hpp"
#include "run/device_loss.hpp"
#include "run/run_options.hpp"
#include "run/variant_choice.hpp"

namespace hwcomm {

// "std::runtime_error" for a record's error_type.
std::string type_name_of(const std::exception& e);

// nullopt when `should_stop` cut it short. `error_type` and `failure`: those
// of the point's error, if any. The point's elapsed_s is its wall time.
std::optional<Point> measure_point(TransferSession& session, std::size_t bytes,
                                   const std::vector<std::string>& variants, const RunOptions& options,
                                   const std::function<bool()>& should_stop, std::string& error_type,
                                   std::optional<DeviceFailure>& failure);

// The session's variants, chosen once per record when it names probe sizes
// (each variant measured at them; `sizes`: the record's sizes the probes snap
// to); every variant at every size when it names none. nullopt when
// `should_stop` cut the probes short.
std::optional<VariantChoice> choose_variants(TransferSession& session, const std::vector<std::string>& variants,
                                             const std::vector<std::uint64_t>& sizes, const RunOptions& options,
                                             const std::function<bool()>& should_stop);

// The variant labels to measure: all, or max_variants of them (first, last and
// evenly spaced between).
std::vector<std::string> pick_variants(const std::vector<std::string>& all, std::size_t max_variants);

}  // namespace hwcomm
