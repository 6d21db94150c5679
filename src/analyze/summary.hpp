#pragma once
// One line per record of a results file: peak bandwidth over sizes and the
// small-size latency. Reads only the results file (core/results.hpp).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/results.hpp"

namespace hwcomm::analyze {

struct SummaryRow {
    std::string method, src, dst;
    std::string params;             // "host_mem=pinned peer=on" (numa omitted: it is the endpoint)
    std::string status = "ok";      // "ok", "error: ...", "N points failed", "N points unverified"
    std::string timing;             // context.timing_mode, "" when absent
    std::optional<double> peak_gbps;      // max over ok points of bandwidth_gbps (median based)
    std::uint64_t peak_bytes = 0;
    std::optional<double> small_latency_us;  // median seconds per transfer at the smallest ok size
    std::uint64_t small_bytes = 0;
    std::optional<double> latency_4b_us, latency_8b_us;
    // Duplex: each direction's rate at the peak point (extras fwd_gbps/rev_gbps).
    std::optional<double> fwd_gbps, rev_gbps;
};

SummaryRow summarize(const Record& record);
std::vector<SummaryRow> summarize(const ResultsFile& file);

// Compact parameter text used in rows and target matching.
std::string params_text(const std::map<std::string, std::string>& params);

// The one-screen table: method, src->dst, params, peak GB/s (at size),
// latency at the smallest size and at 4 B / 8 B, status.
std::string format_summary_table(const std::vector<SummaryRow>& rows);

}  // namespace hwcomm::analyze
