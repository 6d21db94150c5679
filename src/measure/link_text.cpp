#include "measure/link_text.hpp"

#include <cstdio>

namespace hwcomm {

namespace {

std::string pcie_state(int generation, int width) {
    if (generation <= 0 && width <= 0) return "";
    return "Gen" + (generation > 0 ? std::to_string(generation) : std::string("?")) + " x" +
           (width > 0 ? std::to_string(width) : std::string("?"));
}

std::string link_of(const Edge& e) {
    char buf[64];
    if (e.kind == EdgeKind::Pcie && e.pcie) {
        std::snprintf(buf, sizeof buf, "PCIe %d.0 x%d", e.pcie->generation, e.pcie->width);
        return buf;
    }
    if (e.kind == EdgeKind::NvLink && e.nvlink) {
        std::snprintf(buf, sizeof buf, "NVLink %s x%d", e.nvlink->version.empty() ? "?" : e.nvlink->version.c_str(),
                      e.nvlink->links);
        return buf;
    }
    if (e.kind == EdgeKind::Pcie) return "PCIe link";
    if (e.kind == EdgeKind::NvLink) return "NVLink";
    return std::string(to_string(e.kind)) + " link";
}

std::string state_of(const Edge& e) {
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
            if (e.internal) return "PCIe (internal)";
            return "PCIe " + format_rate(e.gbps_per_direction);
        }
        case EdgeKind::NvLink: {
            std::string s = "NVLink";
            if (e.nvlink) s += (e.nvlink->version.empty() ? "" : " " + e.nvlink->version) + " x" + std::to_string(e.nvlink->links);
            if (e.internal) return s + " (trunk not shown by any source)";
            return s + " " + format_rate(e.gbps_per_direction);
        }
        case EdgeKind::Xgmi: return "XGMI " + format_rate(e.gbps_per_direction);
        case EdgeKind::Smp:
            return "SMP interconnect" + (e.smp_distance ? " distance " + std::to_string(e.smp_distance) : std::string());
        case EdgeKind::Membership: return "local";
        case EdgeKind::Attach: return "attached";
    }
    return "";
}

}  // namespace

std::string describe_edge(const Edge& e, EdgeText text) { return text == EdgeText::Link ? link_of(e) : state_of(e); }

std::string format_gbps(double gbps) {
    // Two decimals, three where they matter (NVLink 4.0: 26.5625 x 18 = 478.125).
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", gbps);
    std::string s = buf;
    if (s.back() == '0') s.pop_back();
    return s;
}

std::string format_rate(double gbps) { return gbps > 0 ? format_gbps(gbps) + " GB/s" : "unknown"; }

std::string format_number(double v, const char* format) {
    char buf[48];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

std::string format_fixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

std::string ratio_percent(double ratio) { return format_number((ratio - 1) * 100, "%+.1f%%"); }

}  // namespace hwcomm
