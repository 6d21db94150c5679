#pragma once
// JSON from files we did not write ourselves, parsed with a nesting limit:
// a few hundred thousand nested arrays would otherwise exhaust the stack in
// nlohmann-json's recursive code paths (issue 16), and in every later walk of
// the document (writing it back, copying it into another file: issue 25).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/input_file.hpp"

namespace hwcomm {

// Deeper than anything hwcomm reads (a results file nests about 8 levels,
// Google Benchmark JSON 4).
inline constexpr int kMaxJsonDepth = 128;
// The guarded input path's cap (input_file.hpp), on disk and inflated.
inline constexpr std::size_t kMaxJsonFileBytes = kMaxInputBytes;

// Parses `text`; throws InputError "<name> is not valid JSON (line L, column
// C: what)" or "<name> nests JSON deeper than <max_depth> levels", one line each.
nlohmann::json parse_json_text(std::string_view text, const std::string& name, int max_depth = kMaxJsonDepth);

// Reads a file through the guarded input path (read_regular_input_file:
// regular files only, size cap, gzip inflated with the same cap) and parses
// it as above.
nlohmann::json parse_json_file(const std::string& path, const std::string& what, int max_depth = kMaxJsonDepth);

// A size or count read from such JSON: an integer of at least 0, else nullopt
// (get<uint64_t> would wrap -1 to 2^64-1 and cast 1e30 out of range, which is
// undefined). A document built in code holds 5 as a signed integer; one parsed
// from text, unsigned.
inline std::optional<std::uint64_t> whole_number_of(const nlohmann::json& v) {
    if (v.is_number_unsigned() || (v.is_number_integer() && v.get<std::int64_t>() >= 0)) return v.get<std::uint64_t>();
    return std::nullopt;
}

// The JSON library's message without its "[json.exception...]" prefix and
// parser jargon: "type must be string, but is number".
std::string json_error_text(const nlohmann::json::exception& e);

}  // namespace hwcomm
