#include "report/topo_format.hpp"

#include <cctype>
#include <cstdio>

#include "measure/byte_size.hpp"
#include "measure/link_text.hpp"

namespace hwcomm {

std::string describe_bottleneck(const Graph& graph, const Path& path) {
    if (path.bottleneck_gbps > 0) return format_gbps(path.bottleneck_gbps) + " GB/s per direction";
    if (!path.unknown_edge) return "unknown";
    const Edge& e = graph.edges()[*path.unknown_edge];
    return "unknown (no rate known for " + e.a + " -- " + e.b + ", " + to_string(e.kind) + ")";
}

std::string describe_vertex(const Vertex& v, bool brief) {
    std::string s = v.name;
    if (v.pci && (!brief || v.id.find(v.pci->to_string()) == std::string::npos)) s += "  " + v.pci->to_string();
    if (v.numa) {
        s += "  " + format_size(v.numa->memory_bytes) + "  cpus " + (v.numa->cpuset.empty() ? "none" : v.numa->cpuset);
        if (v.numa->cores) s += "  " + std::to_string(v.numa->cores) + " cores";
    }
    if (v.gpu) {
        const GpuInfo& g = *v.gpu;
        if (g.memory_bytes) s += "  " + format_size(g.memory_bytes);
        if (g.sm_count && !brief) s += "  " + std::to_string(g.sm_count) + " SMs";
        if (g.cc_major && !brief) s += "  cc " + std::to_string(g.cc_major) + "." + std::to_string(g.cc_minor);
        if (g.cuda_ordinal >= 0) s += "  cuda " + std::to_string(g.cuda_ordinal) + (v.attrs.count("cuda_ordinal_inferred") ? "*" : "");
        if (g.nvml_index >= 0 && (!brief || g.nvml_index != g.cuda_ordinal)) s += "  nvml " + std::to_string(g.nvml_index);
        if (!g.uuid.empty() && !brief) s += "  " + g.uuid;
    }
    if (auto it = v.attrs.find("pcie_port"); it != v.attrs.end()) s += "  [" + it->second + " port]";
    if (auto port = v.attrs.find("link_gbps_at_port"); port != v.attrs.end())
        s += "  [link: device says " + v.attrs.at("link_gbps_at_device") + ", port " + port->second + " GB/s; " +
             v.attrs.at("link_limited_by") + " limits]";
    return s;
}

std::string compress_ids(const std::vector<std::string>& ids) {
    // Split "nvswitch12" into ("nvswitch", 12); fold runs of 3 or more.
    std::vector<std::pair<std::string, long>> parts;
    for (const auto& id : ids) {
        std::size_t digits = id.size();
        while (digits > 0 && std::isdigit(static_cast<unsigned char>(id[digits - 1]))) --digits;
        parts.emplace_back(id.substr(0, digits), digits < id.size() && id.size() - digits < 9 ? std::stol(id.substr(digits)) : -1);
    }
    std::string out;
    for (std::size_t i = 0; i < parts.size();) {
        std::size_t j = i;
        while (parts[i].second >= 0 && j + 1 < parts.size() && parts[j + 1].first == parts[i].first &&
               parts[j + 1].second == parts[j].second + 1)
            ++j;
        out += out.empty() ? "" : ", ";
        if (j >= i + 2) out += parts[i].first + std::to_string(parts[i].second) + ".." + std::to_string(parts[j].second);
        else
            for (std::size_t k = i; k <= j; ++k) out += (k > i ? ", " : "") + ids[k];
        i = j + 1;
    }
    return out;
}

}  // namespace hwcomm
