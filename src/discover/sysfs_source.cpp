#include "discover/sysfs_source.hpp"

#include <cstdlib>
#include <fstream>

#include "core/link_rates.hpp"

namespace hwcomm {

namespace {

std::optional<std::string> read_line(const std::string& path) {
    std::ifstream in(path);
    std::string line;
    if (!in || !std::getline(in, line)) return std::nullopt;
    return line;
}

// "8 GT/s", "32.0 GT/s PCIe", "2.5 GT/s PCIe" -> generation; 0 for "Unknown".
int generation_of(const std::optional<std::string>& text) {
    if (!text) return 0;
    return pcie_generation_from_gts(std::strtod(text->c_str(), nullptr));
}

int width_of(const std::optional<std::string>& text) {
    return text ? std::atoi(text->c_str()) : 0;
}

}  // namespace

std::optional<PcieLink> read_sysfs_pcie_link(const std::string& fsroot, const PciAddress& address) {
    const std::string dir = fsroot + "/sys/bus/pci/devices/" + address.to_string() + "/";
    PcieLink link;
    link.generation = generation_of(read_line(dir + "current_link_speed"));
    link.width = width_of(read_line(dir + "current_link_width"));
    link.max_generation = generation_of(read_line(dir + "max_link_speed"));
    link.max_width = width_of(read_line(dir + "max_link_width"));
    if (link.generation == 0 && link.width == 0 && link.max_generation == 0 && link.max_width == 0) return std::nullopt;
    return link;
}

int apply_sysfs_pcie(Graph& graph, const std::string& fsroot) {
    int applied = 0;
    for (Edge& e : graph.mutable_edges()) {
        if (e.kind != EdgeKind::Pcie) continue;
        const Vertex* child = graph.find(e.b);
        if (!child || !child->pci) continue;
        auto port = child->attrs.find("pcie_port");
        if (port != child->attrs.end() && (port->second == "root" || port->second == "downstream")) continue;
        auto link = read_sysfs_pcie_link(fsroot, *child->pci);
        if (!link) continue;
        e.pcie = *link;
        e.gbps_per_direction = pcie_link_gbps(link->generation, link->width);
        e.max_gbps_per_direction = pcie_link_gbps(link->max_generation, link->max_width);
        e.source += e.source.empty() ? "sysfs" : "+sysfs";
        ++applied;
    }
    return applied;
}

}  // namespace hwcomm
