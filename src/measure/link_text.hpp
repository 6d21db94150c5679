#pragma once
// Links and rates as every printer writes them: one describe_edge, in the two
// forms printed text needs.
#include <string>

#include "core/graph.hpp"

namespace hwcomm {

enum class EdgeText {
    Link,   // what the link is: "PCIe 3.0 x16", "NVLink 4.0 x18", "smp link" (limits, shared edges)
    State,  // what it runs at: "PCIe Gen3 x16 15.75 GB/s (max Gen4 x16 31.5 GB/s)", "NVLink 4.0 x18 478.125 GB/s",
            // "SMP interconnect distance 20", "local" (topology printers)
};
std::string describe_edge(const Edge& edge, EdgeText text);

// "15.75" / "478.125": two or three decimals, no unit.
std::string format_gbps(double gbps);
// A GB/s figure, or "unknown" for 0 (a rate no source gives).
std::string format_rate(double gbps);
// v printed with a printf format ("%.1f", "%.4g"), for the text reports and log lines.
std::string format_number(double v, const char* format);
// v with `decimals` decimals ("%.*f").
std::string format_fixed(double v, int decimals);
// How far a ratio lies from 1 in percent, signed: 1.123 -> "+12.3%".
std::string ratio_percent(double ratio);

}  // namespace hwcomm
