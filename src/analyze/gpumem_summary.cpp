#include "analyze/gpumem_summary.hpp"

#include <cstdio>
#include <map>
#include <sstream>

#include "analyze/curve_metrics.hpp"
#include "analyze/gpumem_facts.hpp"
#include "analyze/summary.hpp"
#include "analyze/text_table.hpp"
#include "catalog/method_params.hpp"
#include "measure/byte_size.hpp"

namespace hwcomm::analyze {

namespace {

std::string element_name(int bytes) {
    switch (bytes) {
        case 4: return "4 B (float)";
        case 8: return "8 B (float2)";
        case 16: return "16 B (float4)";
        default: return std::to_string(bytes) + " B";
    }
}

std::string occupancy(const Record& r) {
    const OccupancyFacts f = occupancy_facts(r);
    if (f.series.empty()) return "  no measured point\n";
    std::string out = "  peak " + table_number(f.peak_gbps) + " GB/s";
    if (f.theoretical_gbps && *f.theoretical_gbps > 0)
        out += " = " + table_number(100 * f.peak_gbps / *f.theoretical_gbps, "%.0f") + "% of the theoretical DRAM " +
               table_number(*f.theoretical_gbps) + " GB/s";
    out += ", at " + std::to_string(f.peak_warps_per_sm) + " warps/SM, ILP " + std::to_string(f.peak_ilp) + ", " +
           element_name(f.peak_element_bytes) + (f.peak_latency_bound ? " (latency-bound)" : " (bandwidth-bound)") + "\n";
    out += "  Little's law with the unloaded latency " + table_number(f.latency_ns) +
           " ns: fewest warps/SM at which the bound reaches the theoretical bandwidth\n"
           "  ('-': latency-bound at every point: more bytes in flight would raise it), and the best GB/s of each series:\n";
    std::vector<std::vector<std::string>> rows{{"element", "ILP", "bandwidth-bound from warps/SM", "best GB/s", "at warps/SM"}};
    for (const auto& s : f.series) {
        const auto from = first_bandwidth_bound(s);
        const OccupancyPoint* best = &s.points.front();
        for (const auto& p : s.points)
            if (p.gbps > best->gbps) best = &p;
        rows.push_back({element_name(s.element_bytes), std::to_string(s.ilp), from ? std::to_string(*from) : "-",
                        table_number(best->gbps), std::to_string(best->warps_per_sm)});
    }
    return out + text_table(rows, "    ");
}

std::string stride(const Record& r) {
    std::vector<std::vector<std::string>> rows{{"element", "stride", "GB/s", "sectors/request", "ncu", "stride", "GB/s",
                                                "sectors/request", "ncu"}};
    bool ncu = false;
    for (const StrideSeries& s : stride_facts(r)) {
        if (s.points.empty()) continue;
        std::vector<std::string> row{element_name(s.element_bytes)};
        for (const StridePoint* p : {&s.points.front(), &s.points.back()}) {
            ncu = ncu || p->sectors_per_request_ncu;
            row.insert(row.end(), {std::to_string(p->stride), table_number(p->gbps), table_number(p->sectors_per_request_theory, "%.0f"),
                                   table_number(p->sectors_per_request_ncu, "%.1f")});
        }
        rows.push_back(std::move(row));
    }
    return text_table(rows, "  ") + "  (effective GB/s: elements read x element bytes over the time; sectors/request: 32-byte\n"
                               "  sectors per warp request in theory" +
           (ncu ? std::string(", and as Nsight Compute counted them)\n") : std::string("; ncu: not measured)\n"));
}

std::string timeline(const Record& r) {
    std::vector<std::vector<std::string>> rows{
        {"element", "warps/block", "median warp latency cycles", "ns", "block gap cycles", "ns", "SM MHz"}};
    for (const TimelineRow& t : timeline_facts(r))
        rows.push_back({element_name(t.element_bytes), std::to_string(t.warps_per_block), table_number(t.median_cycles, "%.0f"),
                        table_number(t.median_ns, "%.0f"), table_number(t.block_gap_cycles, "%.0f"), table_number(t.block_gap_ns, "%.0f"),
                        table_number(t.sm_clock_mhz, "%.0f")});
    return text_table(rows, "  ") + "  (latency: clock64 around one load per thread; block gap: a block's start after its SM's "
                               "previous block ended)\n";
}

std::string latency(const Record& r) {
    const LatencyLadder l = latency_ladder(r);
    const bool local = l.memory == "local" || l.memory.empty();
    const std::string half = format_size(l.l2_bytes / 2), four = format_size(4 * l.l2_bytes);
    std::string out = "  " + std::string(local ? "L1 " : "<= 16 KiB ") + table_number(l.smallest_ns) + " ns" +
                      (local ? " (<= 16 KiB)" : "") + ", " + (local ? "L2 " : "1 MiB-" + half + " ") +
                      table_number(l.l2_window_ns) + " ns" + (local ? " (1 MiB-" + half + ")" : "") + ", " +
                      (local ? "DRAM " : ">= " + four + " ") + table_number(l.beyond_l2_ns) + " ns" +
                      (local ? " (>= " + four + ")" : "") + "\n";
    std::string sizes = "  ns by working set:";
    for (const auto& [bytes, ns] : l.ns_by_working_set) sizes += " " + short_size(bytes) + " " + table_number(ns, "%.0f");
    out += sizes + "\n";
    if (l.nearest_sm_ns && l.farthest_sm_ns && l.l2_window_ns && *l.nearest_sm_ns > 0)
        out += "  by the SM that chases (1 MiB-" + half + ", up to " + std::to_string(l.chase_sms) +
               " SMs a sample; the figures above are their mean, as nvbandwidth's): nearest " + table_number(l.nearest_sm_ns) +
               " ns, farthest " + table_number(l.farthest_sm_ns) + " ns, " +
               table_number((*l.farthest_sm_ns / *l.nearest_sm_ns - 1) * 100, "%.1f") + "% apart\n";
    return out;
}

// Each working set: the unloaded latency, then each load level's, as a ratio, with what the loads moved.
std::string loaded(const Record& r) {
    const std::vector<LoadedLatency> levels = loaded_latency(r);
    std::map<std::uint64_t, std::string> lines;
    std::map<std::uint64_t, double> unloaded;
    for (const LoadedLatency& l : levels)
        if (l.load == "none")
            for (const auto& [bytes, ns] : l.ns_by_working_set) unloaded[bytes] = ns;
    for (const LoadedLatency& l : levels)
        for (const auto& [bytes, ns] : l.ns_by_working_set) {
            std::string& line = lines[bytes];
            line += (line.empty() ? "" : "; ") + l.load + " " + table_number(ns, "%.0f") + " ns";
            if (l.load != "none" && unloaded.count(bytes) && unloaded[bytes] > 0) {
                line += " (" + table_number(ns / unloaded[bytes], "%.2f") + "x";
                for (const auto& [b, u] : l.load_gbps_by_working_set)
                    if (b == bytes) line += ", U " + table_number(u, "%.0f") + " GB/s";
                line += ")";
            }
        }
    std::string out;
    for (const auto& [bytes, line] : lines) out += "  at " + format_size(bytes) + ": " + line + "\n";
    return out + "  (load same: copies moving data the way the chase's loads do; both: and the other way too)\n";
}

}  // namespace

std::string format_gpumem_summary(const std::vector<Record>& records, const MethodCatalog& catalog,
                                  const std::string& source) {
    std::ostringstream out;
    for (const Record& r : records) {
        const MethodRow* row = catalog.find(r.method);
        if (!in_family(row, MethodFamily::GpuMemory)) continue;
        std::string head = (source.empty() ? "" : source + " ") + r.method + " " + r.src + "->" + r.dst;
        if (auto m = r.params.find(MemoryParam::key); m != r.params.end()) head += " (" + m->second + ")";
        if (auto l = r.params.find("layout"); l != r.params.end()) head += " layout " + l->second;
        out << head << ":\n";
        if (r.status != "ok") {
            out << "  error: " << r.error << "\n";
            continue;
        }
        switch (row->view) {
        case MethodView::GpumemOccupancy: out << occupancy(r); break;
        case MethodView::GpumemStride: out << stride(r); break;
        case MethodView::GpumemTimeline: out << timeline(r); break;
        case MethodView::GpumemLatency: out << latency(r); break;
        case MethodView::GpumemLoadedLatency: out << loaded(r); break;
        default: break;  // a gpumem method without a section of its own: its point counts only
        }
        std::size_t failed = 0;
        for (const Point& p : r.points) failed += p.status != "ok";
        if (failed) out << "  " << failed << " point(s) failed\n";
    }
    const std::string text = out.str();
    return text.empty() ? "" : "GPU memory (gpumem-*: docs/gpumem.md):\n" + text;
}

}  // namespace hwcomm::analyze
