#pragma once
// The helpers every text printer (run progress, summary, analyze, model
// check, compare) formats numbers with, so a metric reads the same everywhere.
// Byte sizes: format_size / short_size (measure/byte_size.hpp); links and
// link rates: describe_edge / format_rate (measure/link_text.hpp).
#include <string>

namespace hwcomm::text {

// "12.34 GB/s"; below 1 GB/s three significant digits ("0.337 GB/s").
std::string gbps(double value);
// A metric with its unit as printed: GB/s as above; others "612 ns",
// "4.25 us", "0.0131 s" (three significant digits, no exponent below 1e6).
std::string value(double value, const std::string& unit);

}  // namespace hwcomm::text
