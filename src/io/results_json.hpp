#pragma once
// The results file as JSON (schema "hwcomm-results", docs/schema.md).
// Writes version "2.0"; reads every 2.x and version 1 (migrated on read).
// Keys this build does not know are kept at every level and written back, so
// a resume by this build does not strip what a newer build wrote.
#include <string>

#include <nlohmann/json.hpp>

#include "core/results.hpp"
#include "io/point_json.hpp"

namespace hwcomm {

nlohmann::json results_to_json(const ResultsFile& file);
// Throws std::runtime_error (one line) naming the problem: not a results
// file, a version this build does not read, a malformed or duplicate record,
// an endpoint that is not node-qualified in a file of several nodes.
ResultsFile results_from_json(const nlohmann::json& doc);

// The "version" a document declares, "1" for schema_version 1; "" when none.
std::string results_version_of(const nlohmann::json& doc);

}  // namespace hwcomm
