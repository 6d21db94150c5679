#pragma once
// What the run's host read probe saw between records (meta.run.host_read,
// run/host_read_probe.hpp): the range of the host's memory read rate over the
// run, and what that means for the host-side figures. Reads results files only.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/results.hpp"

namespace hwcomm::analyze {

struct HostReadRange {
    std::size_t visits = 0;
    double low_gbps = 0, median_gbps = 0, high_gbps = 0;
    double span_s = 0;                // from the first visit to the last
    std::uint64_t bytes = 0;          // the probe's buffer, 0 when not said
    unsigned threads = 0;             // its readers, 0 when not said
    double spread() const { return median_gbps > 0 ? (high_gbps - low_gbps) / median_gbps : 0; }
};

// The visits of meta.run.host_read with a positive, finite rate; nullopt
// when there are none (files before the probe, a skipped probe, a hostile
// file: any malformed part is ignored, never thrown on).
std::optional<HostReadRange> host_read_range(const nlohmann::json& meta);

// Above this spread (max - min over median) summary says the host moved.
inline constexpr double kHostReadSteady = 0.05;

// The mean of the probe's rates around a record (context.host_read_gbps,
// positive finite numbers only); nullopt without any.
std::optional<double> host_read_mean(const Record& record);
// The same of any such array (a recheck's host_read_gbps); nullopt without any.
std::optional<double> host_read_mean(const nlohmann::json& rates);

// A record of host memory (an end on a NUMA node, has_numa_endpoint) measured
// while the probe read at least kHostReadOffMedian away from the run's
// median: the mean of the visits around it (context.host_read_gbps) over that
// median. In a file of several nodes (--mpi) each record against its own
// node's series (cluster.nodes[].meta, by its context.node).
struct HostReadOffRecord {
    std::string key;
    double ratio = 1;
};
inline constexpr double kHostReadOffMedian = 0.10;
std::vector<HostReadOffRecord> records_off_host_median(const ResultsFile& file);

// Beyond this the probe's ratio in a difference's direction may explain it.
inline constexpr double kHostReadExplains = 0.05;

// What the probe's rate around one record over that around another
// (`host_ratio`) says of a `difference` (record / other - 1) between them:
// ": the host read as fast around it (...)" (within 5%: not the host's drift,
// though changes within seconds escape the probe: on nvidia-h200-x4 at
// 1d1dff3 three pageable copies confirmed within 0.6 s of each other shared
// one visit, and one read 38% above the others), ": the host moved the other way", ": the difference may be the host's, not the
// link's" (in its direction by at least half of it), else ": the host
// explains part of the difference at most".
std::string host_read_wording(double host_ratio, double difference);

// summary's lines: the range, and whether host-side figures of this run may
// differ from another run's by as much, then the records measured while the
// host read 10% or more away from its median; "skipped: why" for a probe that
// could not be made; "" when the file says nothing of it. A file of several
// nodes: one range per node whose meta has a series.
std::string format_host_read(const ResultsFile& file);

}  // namespace hwcomm::analyze
