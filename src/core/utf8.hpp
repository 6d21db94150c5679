#pragma once
// Text from sources hwcomm does not control (hwloc strings, host names,
// NVML recordings) may hold bytes that are not UTF-8, such as a latin-1 CPU
// model. JSON, XML (SVG) and terminals need valid UTF-8, so such text is made
// valid once, where it enters the program.
#include <string>
#include <string_view>

namespace hwcomm {

bool is_valid_utf8(std::string_view text);

// Each byte that does not start or continue a well-formed UTF-8 sequence
// (overlong forms, surrogates and code points above U+10FFFF included) becomes
// U+FFFD; valid text comes back unchanged.
std::string to_valid_utf8(std::string_view text);

// The original bytes, readable: printable ASCII as is, a backslash as "\\",
// every other byte as "\xNN". Keeps what to_valid_utf8 replaced.
std::string escape_bytes(std::string_view text);

}  // namespace hwcomm
