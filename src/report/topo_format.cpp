#include "report/topo_format.hpp"

#include <cstdio>

#include "measure/byte_size.hpp"

namespace hwcomm {

std::string format_gbps(double gbps) {
    // Two decimals, three where they matter (NVLink 4.0: 26.5625 x 18 = 478.125).
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", gbps);
    std::string s = buf;
    if (s.back() == '0') s.pop_back();
    return s;
}

namespace {

std::string pcie_state(int generation, int width) {
    if (generation <= 0 && width <= 0) return "";
    return "Gen" + (generation > 0 ? std::to_string(generation) : std::string("?")) + " x" +
           (width > 0 ? std::to_string(width) : std::string("?"));
}

}  // namespace

std::string describe_edge(const Edge& e) {
    switch (e.kind) {
        case EdgeKind::Pcie: {
            if (e.pcie) {
                std::string s = "PCIe " + pcie_state(e.pcie->generation, e.pcie->width) + " " +
                                format_gbps(e.gbps_per_direction) + " GB/s";
                if (e.pcie->max_generation > 0 &&
                    (e.pcie->max_generation != e.pcie->generation || e.pcie->max_width != e.pcie->width))
                    s += " (max " + pcie_state(e.pcie->max_generation, e.pcie->max_width) + " " +
                         format_gbps(e.max_gbps_per_direction) + " GB/s)";
                return s;
            }
            if (e.gbps_per_direction > 0) return "PCIe " + format_gbps(e.gbps_per_direction) + " GB/s";
            return "PCIe (internal or unknown rate)";
        }
        case EdgeKind::NvLink: {
            std::string s = "NVLink";
            if (e.nvlink) s += (e.nvlink->version.empty() ? "" : " " + e.nvlink->version) + " x" + std::to_string(e.nvlink->links);
            return s + " " + format_gbps(e.gbps_per_direction) + " GB/s";
        }
        case EdgeKind::Smp:
            return "SMP interconnect" + (e.smp_distance ? " distance " + std::to_string(e.smp_distance) : std::string());
        case EdgeKind::Membership: return "local";
        case EdgeKind::Attach: return "attached";
    }
    return "";
}

std::string describe_vertex(const Vertex& v) {
    std::string s = v.name;
    if (v.pci) s += "  " + v.pci->to_string();
    if (v.numa) {
        s += "  " + format_size(v.numa->memory_bytes) + "  cpus " + (v.numa->cpuset.empty() ? "none" : v.numa->cpuset);
        if (v.numa->cores) s += "  " + std::to_string(v.numa->cores) + " cores";
    }
    if (v.gpu) {
        const GpuInfo& g = *v.gpu;
        if (g.memory_bytes) s += "  " + format_size(g.memory_bytes);
        if (g.sm_count) s += "  " + std::to_string(g.sm_count) + " SMs";
        if (g.cc_major) s += "  cc " + std::to_string(g.cc_major) + "." + std::to_string(g.cc_minor);
        if (g.cuda_ordinal >= 0) s += "  cuda " + std::to_string(g.cuda_ordinal);
        if (g.nvml_index >= 0) s += "  nvml " + std::to_string(g.nvml_index);
        if (!g.uuid.empty()) s += "  " + g.uuid;
    }
    if (auto it = v.attrs.find("pcie_port"); it != v.attrs.end()) s += "  [" + it->second + " port]";
    return s;
}

}  // namespace hwcomm
