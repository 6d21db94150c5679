#pragma once
// What the CPU memory records say (docs/cpu-methods.md), shared by `summary`,
// `analyze` and the HTML report: the bandwidth kernels at their largest size
// (median and best of N, hwcomm's byte count and STREAM's beside it), the idle
// latency matrix and ladder (cpu-latency), the loaded-latency curves
// (cpu-loaded-latency), the read/write-mix matrices (cpu-bandwidth-mix) and
// the theoretical DRAM bandwidth the firmware states. Reads records only.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/method_row.hpp"
#include "core/results.hpp"

namespace hwcomm::analyze {

// cpu-latency, cpu-loaded-latency, cpu-bandwidth-mix: their points are not a size curve of bandwidth.
bool is_cpu_section_method(const std::string& method);
// The same from the record's row (a file's own rows included); false without one.
bool in_cpu_section(const MethodRow* row);
// The bandwidth kernels whose largest point the CPU section lists.
bool is_cpu_bandwidth_method(const std::string& method);

struct CpuBandwidthRow {
    std::string method, src, dst, params;
    std::uint64_t bytes = 0;         // the largest size measured
    double median_gbps = 0;          // hwcomm's count: each byte once
    double best_gbps = 0;            // the best sample: STREAM reports the best of N
    int stream_factor = 0;           // STREAM's bytes per hwcomm byte (Copy 2, Triad 3); 0 when none
    std::string stream_kernel;
    std::string variant;             // worker count used
    std::size_t samples = 0;
    double ci_half_width = 0;        // relative, of the median
    std::string stop_reason;
    std::string isa;                 // context.kernels.isa
};
std::vector<CpuBandwidthRow> cpu_bandwidth_rows(const std::vector<Record>& records);

// src (the cores' node) x dst (the memory's node) -> value.
struct NodeMatrix {
    std::vector<std::string> rows, cols;
    std::map<std::pair<std::string, std::string>, double> cells;
    std::uint64_t bytes = 0;  // the largest size the cells come from (0: mixed)
};

struct CpuLatencyLadder {
    std::string src, dst;
    std::vector<std::pair<std::uint64_t, double>> ns_by_working_set;  // sorted by size
    std::uint64_t l1d = 0, l2 = 0, llc = 0;  // the record's context.caches (0 unknown)
    // Medians over each cache's window: <= half of it and above twice the level below.
    std::optional<double> l1_ns, l2_ns, llc_ns;
    std::optional<double> dram_ns;           // median over working sets >= 4x the LLC
    // The first working set whose latency is 1.5x the window below it: where the step is seen.
    std::optional<std::uint64_t> l2_step, llc_step, dram_step;
    // The memory's level seen from the ladder itself: the smallest working set
    // from which every larger one reads within 10% of the largest one's
    // latency (at least three rungs, the largest >= 4x L2), and their median.
    std::optional<std::uint64_t> memory_from;
    std::optional<double> memory_ns;
    // That level starts at or below half the reported LLC: the LLC window reads
    // memory latency, the core sees a smaller last-level cache than the OS
    // reports (a VM's L3 may be its host's: 300 MiB on the H100 guests, whose
    // ladder reaches its 1 GiB latency from 16 MiB).
    bool llc_window_reads_memory = false;
    std::optional<double> huge_page_share;   // bytes on huge pages / buffer bytes
};
CpuLatencyLadder cpu_latency_ladder(const Record& record);
// Idle latency (ns) at each cpu-latency record's largest working set.
NodeMatrix cpu_latency_matrix(const std::vector<Record>& records);

struct LoadedLatencyPoint {
    unsigned load_workers = 0;
    double latency_ns = 0, load_gbps = 0;
};
struct LoadedLatencyCurve {
    std::string src, dst;
    std::uint64_t bytes = 0;
    std::vector<LoadedLatencyPoint> points;  // by load workers
};
std::vector<LoadedLatencyCurve> cpu_loaded_latency(const std::vector<Record>& records);

// One matrix per mix ("read", "3:1", "2:1", "1:1"), GB/s of bytes read plus written.
std::map<std::string, NodeMatrix> cpu_mix_matrices(const std::vector<Record>& records);

struct DramStatement {
    std::optional<double> theoretical_gbps;
    std::string note;  // the source and assumption, or why none
};
// From the first CPU record that carries context.dram; nullopt when none does.
std::optional<DramStatement> cpu_dram(const std::vector<Record>& records);

// Everything above as JSON (analyze --json, the report).
nlohmann::json cpu_facts_json(const std::vector<Record>& records);
// The text section of `summary` and `analyze`; "" when no record is a CPU memory record.
std::string format_cpu_section(const std::vector<Record>& records, const std::string& source = "");

}  // namespace hwcomm::analyze
