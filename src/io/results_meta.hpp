#pragma once
// The meta block of a results file written by `hwcomm run`, and the checks
// --resume makes before it touches a file. Run options arrive as JSON (their
// type lives in src/run, above io).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/graph.hpp"
#include "core/results.hpp"

namespace hwcomm {

// meta: tool version, git revision, command line, host, date, kernel, CPU
// model, units, the run options and meta.nodes (this host, one node).
nlohmann::json make_meta(const std::vector<std::string>& command_line, const nlohmann::json& options);

// A new results file for this graph (no records yet); meta.fingerprint is
// machine_fingerprint(graph, this host's CPU model).
ResultsFile new_results(const Graph& graph, const std::vector<std::string>& command_line,
                        const nlohmann::json& options);

// This machine's fingerprint as new_results stores it.
nlohmann::json this_machine_fingerprint(const Graph& graph);

// Loads a file for --resume. Throws UsageError (file untouched) when it is
// unreadable, corrupt, of another schema or version, without meta.options, or
// made on another machine ("resume refused: " + the first difference of the
// fingerprints).
ResultsFile load_for_resume(const std::string& path, const nlohmann::json& this_fingerprint);

// Provenance of a record this build measured, when it has none yet:
// {"kind":"measured","tool":"hwcomm","revision": HWCOMM_GIT_REVISION}.
void stamp_measured_provenance(Record& record);

// Copies facts a method reports for the whole run (context "cuda": driver and
// runtime versions) into meta the first time they appear.
void absorb_record_meta(ResultsFile& file, const Record& record);

}  // namespace hwcomm
