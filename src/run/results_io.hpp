#pragma once
// Results file I/O for `hwcomm run`: the meta block, atomic saves after each
// record, and the checks --resume makes before it touches a file.
#include <string>
#include <vector>

#include "core/graph.hpp"
#include "core/results.hpp"
#include "run/run_options.hpp"

namespace hwcomm {

// meta: tool version, git revision, command line, host, date, kernel, CPU
// model, units and the run options.
nlohmann::json make_meta(const std::vector<std::string>& command_line, const RunOptions& options);

// A new results file for this graph (no records yet).
ResultsFile new_results(const Graph& graph, const std::vector<std::string>& command_line, const RunOptions& options);

// Writes the whole file atomically (temp file + fsync + rename).
void save_results(const std::string& path, const ResultsFile& file);

// Loads a file for --resume. Throws UsageError (file untouched) when it is
// unreadable, corrupt, of another schema or version, or from another host.
ResultsFile load_for_resume(const std::string& path, const std::string& this_host);

// Copies facts a method reports for the whole run (context "cuda": driver and
// runtime versions) into meta the first time they appear.
void absorb_record_meta(ResultsFile& file, const Record& record);

}  // namespace hwcomm
