#pragma once
// One line per record of one or more results files, built on the curve
// metrics: large-transfer bandwidth, best point (cache-resident flag), % of
// the path's link, small-transfer time where it means something, status.
// Reads only results files (core/results.hpp).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyze/curve_metrics.hpp"
#include "core/results.hpp"

namespace hwcomm::analyze {

struct SummaryRow {
    std::string source;             // file/host label; "" when only one file is summarized
    std::string key, method, src, dst;
    std::string params;             // "host_mem=pinned peer=on" (numa omitted: it is the endpoint)
    std::string status = "ok";      // "ok", "error: ...", "N points failed", "N points unverified"
    std::string timing;             // context.timing_mode, "" when absent
    std::string measured_as;        // "full", "confirmed", "promoted"; "" when the file does not say
    bool in_round = false;          // confirmed as a lane of a round (context.round)
    CurveMetrics metrics;
    std::optional<double> peak_gbps;      // the best point's bandwidth (max over sizes)
    std::uint64_t peak_bytes = 0;
    std::optional<double> small_latency_us;  // median time per transfer at the smallest ok size
    std::uint64_t small_bytes = 0;
    std::optional<double> latency_4b_us, latency_8b_us;
    // Duplex: each direction's rate at the best point (extras fwd_gbps/rev_gbps).
    std::optional<double> fwd_gbps, rev_gbps;
    // What a duplex record's figures count (the catalog's convention: "sum" or
    // "one-direction-under-opposite"); "" for a record of one direction.
    std::string duplex;
    // Several measured lanes (concurrency, transfer sets): how many, and the
    // slowest and fastest lane at the best point, each under the others' traffic.
    std::size_t lanes = 1;
    std::optional<double> lane_min_gbps, lane_max_gbps;
    // The largest coefficient of variation (stdev / mean of a point's samples) over the ok points, and where.
    std::optional<double> max_cv;
    std::uint64_t max_cv_bytes = 0;
    // What the points are when they are not the path's bandwidth (context.headline):
    // the row then shows no rate and no link share, and this note says why.
    std::string headline_note;
    // Ladder points measured once more after a transient (context.remeasured): where, and what the first read.
    std::string remeasured_note;
    std::string recheck_note;  // a representative measured again beside its class (analyze/representative_recheck.hpp)
    std::string twice_note;    // a confirmation measured twice (analyze/representative_recheck.hpp)
    std::string pass_note;     // a link of a class measured twice (analyze/representative_recheck.hpp)
    // The blocking kernel timed out and was dropped (context.gate): small sizes hold the enqueue cost.
    std::string gate_note;
};

// `row`: the record's method row (catalog_for(file.meta).find(record.method)).
SummaryRow summarize(const Record& record, const MethodRow* row, const Graph* topology = nullptr,
                     const CurveOptions& options = {});
std::vector<SummaryRow> summarize(const ResultsFile& file, const std::string& source = "",
                                  const CurveOptions& options = {});

// Compact parameter text used in rows and target matching.
std::string params_text(const std::map<std::string, std::string>& params);

// The one-screen table (fits 120 columns) and, below it, the suspect points.
std::string format_summary_table(const std::vector<SummaryRow>& rows);

// Byte sizes: format_size ("4 KiB") and short_size ("64K"), measure/byte_size.hpp.
// "2.22 us", "14.1 us", "1.53 ms".
std::string format_time(double seconds);

}  // namespace hwcomm::analyze
