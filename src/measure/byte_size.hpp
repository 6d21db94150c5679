#pragma once
// Byte sizes as people write and read them: "4K", "64MiB", "1g" on the command
// line; "64 MiB", "1.26 KiB" in every printed table. Always binary
// (K = 1024); bandwidth stays GB/s = 1e9 B/s elsewhere.
#include <cstdint>
#include <string>

namespace hwcomm {

// A whole number of bytes, optionally followed by a unit, case-insensitive:
// B; K, KB, KiB; M, MB, MiB; G, GB, GiB; T, TB, TiB (all binary: 1K = 1024).
// Throws UsageError naming the text for anything else ("", "1X", "-1",
// "1e3", "1.5G", "1 G") and for a value above 2^64-1.
std::uint64_t parse_size(const std::string& text);
// The largest binary unit the size reaches: whole numbers exactly ("64 MiB",
// "3 B"), others to 3 significant digits ("1.26 KiB", "15.6 GiB").
// The one byte-size formatter of every printer.
std::string format_size(std::uint64_t bytes);
// For narrow columns: the largest binary unit that divides the size exactly,
// as a letter ("64K", "1G", "1536", "3").
std::string short_size(std::uint64_t bytes);

}  // namespace hwcomm
