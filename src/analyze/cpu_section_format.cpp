// The CPU memory section of `summary` and `analyze` (text): bandwidth kernels
// with both byte counts, the idle latency matrix, the ladders, the loaded
// latency curves and the read/write-mix matrices, from analyze/cpu_facts.
#include <algorithm>

#include "analyze/cpu_facts.hpp"
#include "analyze/curve_metrics.hpp"
#include "analyze/summary.hpp"
#include "analyze/text_table.hpp"
#include "catalog/method_names.hpp"
#include "measure/byte_size.hpp"

namespace hwcomm::analyze {

namespace {

std::string matrix_text(const NodeMatrix& m, const char* format) {
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> head{"cores \\ memory"};
    for (const auto& c : m.cols) head.push_back(c);
    rows.push_back(head);
    for (const auto& r : m.rows) {
        std::vector<std::string> line{r};
        for (const auto& c : m.cols) {
            const auto it = m.cells.find({r, c});
            line.push_back(it == m.cells.end() ? "-" : table_number(it->second, format));
        }
        rows.push_back(line);
    }
    return text_table(rows, "    ");
}

std::string bandwidth_text(const std::vector<CpuBandwidthRow>& rows) {
    std::vector<std::vector<std::string>> t{{"method", "src->dst", "params", "size", "median", "best of N", "STREAM count",
                                             "workers", "n", "CI +-", "stop"}};
    for (const auto& r : rows) {
        const std::string stream = r.stream_factor > 0 ? r.stream_kernel + " x" + std::to_string(r.stream_factor) + ": " +
                                                             table_number(r.median_gbps * r.stream_factor) + " / " +
                                                             table_number(r.best_gbps * r.stream_factor)
                                                       : "-";
        t.push_back({r.method, r.src + "->" + r.dst, r.params.empty() ? "-" : r.params, short_size(r.bytes),
                     table_number(r.median_gbps), table_number(r.best_gbps), stream, r.variant.empty() ? "-" : r.variant,
                     std::to_string(r.samples), table_number(r.ci_half_width * 100, "%.1f%%"), r.stop_reason});
    }
    return text_table(t, "    ");
}

std::string ladder_text(const CpuLatencyLadder& l) {
    auto level = [](const char* name, std::uint64_t bytes, const std::optional<double>& ns) {
        return std::string(name) + (bytes ? " (" + format_size(bytes) + ")" : "") + " " + table_number(ns) + " ns";
    };
    std::string out = "    " + l.src + "->" + l.dst + ": " + level("L1d", l.l1d, l.l1_ns) + ", " + level("L2", l.l2, l.l2_ns) +
                      ", " + level("LLC", l.llc, l.llc_ns) + ", DRAM (>= 4x LLC) " + table_number(l.dram_ns) + " ns\n";
    auto step = [](const char* name, const std::optional<std::uint64_t>& at) {
        return std::string(name) + " " + (at ? format_size(*at) : std::string("-"));
    };
    out += "      latency reaches 1.5x the level below at: " + step("past L1d", l.l2_step) + ", " +
           step("past L2", l.llc_step) + ", " + step("past LLC", l.dram_step);
    if (l.huge_page_share) out += "; huge pages " + table_number(*l.huge_page_share * 100, "%.0f") + "% of the buffer";
    if (l.memory_from) {
        out += "\n      memory level " + table_number(l.memory_ns) + " ns from " + format_size(*l.memory_from) +
               " on (every larger working set within 10% of the largest's)";
        if (l.llc_window_reads_memory)
            out += ": inside the reported LLC (" + format_size(l.llc) +
                   "), so its window reads memory latency; this core sees a smaller last-level cache than the OS "
                   "reports (a VM's L3 may be its host's)";
    }
    out += "\n      ";
    std::string rungs;
    for (const auto& [bytes, ns] : l.ns_by_working_set) rungs += (rungs.empty() ? "" : " ") + short_size(bytes) + ":" + table_number(ns);
    return out + rungs + "\n";
}

}  // namespace

std::string format_cpu_section(const std::vector<Record>& records, const std::string& source) {
    const auto bw = cpu_bandwidth_rows(records);
    const NodeMatrix latency = cpu_latency_matrix(records);
    const auto loaded = cpu_loaded_latency(records);
    const auto mixes = cpu_mix_matrices(records);
    bool ladders = false;
    for (const Record& r : records) ladders = ladders || r.method == method_name::kCpuLatency;
    if (bw.empty() && latency.cells.empty() && loaded.empty() && mixes.empty()) return "";
    std::string out = "CPU memory" + (source.empty() ? "" : " (" + source + ")") + "\n";
    if (const auto dram = cpu_dram(records))
        out += "  theoretical DRAM bandwidth: " +
               (dram->theoretical_gbps ? table_number(*dram->theoretical_gbps) + " GB/s, " + dram->note : "none: " + dram->note) + "\n";
    if (!bw.empty()) {
        std::string isa = bw.front().isa.empty() ? "" : ", loops: " + bw.front().isa;
        out += "  bandwidth at the largest size (GB/s = 1e9 B/s, hwcomm's count: each byte of the transfer once;\n"
               "  STREAM's count beside it, Copy x2 and Triad x3; best of N = the fastest sample, as STREAM reports" + isa + "):\n";
        out += bandwidth_text(bw);
    }
    if (!latency.cells.empty()) {
        out += "  idle latency (ns, cpu-latency at " + (latency.bytes ? format_size(latency.bytes) : std::string("the largest size")) +
               "; rows: the chasing core's node, columns: the memory's node):\n";
        out += matrix_text(latency, "%.1f");
    }
    if (ladders) {
        out += "  latency ladder (ns by working set; windows: <= half a cache and > twice the level below):\n";
        for (const Record& r : records)
            if (r.method == method_name::kCpuLatency) out += ladder_text(cpu_latency_ladder(r));
    }
    for (const auto& c : loaded) {
        out += "  loaded latency " + c.src + "->" + c.dst + " (" + format_size(c.bytes) +
               " working set; load workers: latency ns @ the bandwidth they drew GB/s):\n    ";
        std::string line;
        for (const auto& p : c.points)
            line += (line.empty() ? "" : ", ") + std::to_string(p.load_workers) + ": " + table_number(p.latency_ns) + " @ " + table_number(p.load_gbps);
        out += line + "\n";
    }
    for (const auto& [mix, m] : mixes) {
        out += "  bandwidth, mix " + mix + " (GB/s of bytes read plus written, every core of the row's node):\n";
        out += matrix_text(m, "%.1f");
    }
    return out;
}

}  // namespace hwcomm::analyze
