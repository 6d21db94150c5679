#pragma once
// JSON from files we did not write ourselves, parsed with a nesting limit:
// a few hundred thousand nested arrays would otherwise exhaust the stack in
// nlohmann-json's recursive code paths (issue 16).
#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace hwcomm {

// Deeper than anything hwcomm writes (a results file nests about 8 levels).
inline constexpr int kMaxJsonDepth = 128;
// Larger than any results file of a full run (a 2x H200 run is a few MB).
inline constexpr std::size_t kMaxJsonFileBytes = std::size_t{1} << 30;

// Parses `text`; throws UsageError "<name> is not valid JSON (...)" or
// "<name> nests JSON deeper than <max_depth> levels", one line each.
nlohmann::json parse_json_text(std::string_view text, const std::string& name, int max_depth = kMaxJsonDepth);

// Reads a regular file (see read_regular_input_file) and parses it as above.
nlohmann::json parse_json_file(const std::string& path, const std::string& what, int max_depth = kMaxJsonDepth);

}  // namespace hwcomm
