#pragma once
// Results files on disk: load (plain or gzip-compressed JSON, told apart by
// content, not name) and atomic save.
#include <string>

#include "core/input_file.hpp"  // is_gzip_file
#include "core/results.hpp"

namespace hwcomm {

// Reads and parses a file; throws UsageError, one line starting with
// the path (unreadable, not JSON, not a results file, duplicate keys...).
ResultsFile load_results_file(const std::string& path);

// Writes the whole file atomically as plain JSON (temp file + fsync + rename).
void save_results(const std::string& path, const ResultsFile& file);

}  // namespace hwcomm
