#pragma once
// JSON of the parts of a record: statistics, variants, lanes and points.
// Statistics are optional per field (NaN in the struct, absent in the file) so
// imported aggregates without raw samples fit; unknown keys of points, lanes
// and variants are kept.
#include <nlohmann/json.hpp>

#include "core/results.hpp"

namespace hwcomm {

nlohmann::json stats_to_json(const SampleStats& s);
SampleStats stats_from_json(const nlohmann::json& j);
// False for a default SampleStats (no sample was taken).
bool has_stats(const SampleStats& s);

nlohmann::json lane_spec_to_json(const LaneSpec& l);
LaneSpec lane_spec_from_json(const nlohmann::json& j);

nlohmann::json point_to_json(const Point& p);
// Throws nlohmann::json::exception on a missing or mistyped required key.
Point point_from_json(const nlohmann::json& j);

}  // namespace hwcomm
