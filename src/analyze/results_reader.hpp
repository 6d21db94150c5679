#pragma once
// Reads a results file that may be gzip-compressed (docs/examples keep large
// results as .json.gz). A stop-gap until src/io reads .gz itself; the format
// is core/results.hpp's.
#include <string>

#include "core/results.hpp"

namespace hwcomm::analyze {

// The file's text, decompressed when it starts with the gzip magic bytes.
// Throws std::runtime_error naming the file when it cannot be read.
std::string read_maybe_gzip(const std::string& path);

// load_results_file for plain or gzip-compressed files; throws std::runtime_error.
ResultsFile load_results_any(const std::string& path);

}  // namespace hwcomm::analyze
