#pragma once
// What the run's host read probe saw between records (meta.run.host_read,
// run/host_read_probe.hpp): the range of the host's memory read rate over the
// run, and what that means for the host-side figures. Reads results files only.
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

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

// summary's lines: the range, and whether host-side figures of this run may
// differ from another run's by as much; "skipped: why" for a probe that could
// not be made; "" when the file says nothing of it.
std::string format_host_read(const nlohmann::json& meta);

}  // namespace hwcomm::analyze
