// discover_machine: hwloc first (live, XML or sysfs tree), then sysfs PCIe link
// state, then NVML (live on this machine, or a replayed recording), then the
// CUDA runtime (live machine, CUDA builds), then stable GPU ids.
#include "discover/discover.hpp"

#include <filesystem>

#include "discover/gpu_ids.hpp"
#include "discover/hwloc_loader.hpp"
#include "discover/hwloc_source.hpp"
#include "discover/nvml_source.hpp"
#include "discover/sysfs_source.hpp"
#ifdef HWCOMM_HAVE_CUDA
#include "discover/cuda_source.hpp"
#endif

namespace hwcomm {

Graph discover_machine(const DiscoverOptions& options) {
    const bool live = options.input_xml.empty() && options.fsroot.empty();
    HwlocTopology topology = load_hwloc_topology(options.input_xml, options.fsroot);
    Graph graph = graph_from_hwloc(topology.get());
    // hwloc reports its API version at run time, not the release (2.9.0 and 2.10.0 share 2.8).
    const unsigned api = hwloc_get_api_version();
    graph.provenance["hwloc_api_version"] = std::to_string(api >> 16) + "." + std::to_string((api >> 8) & 0xff);
    if (!options.input_xml.empty()) graph.provenance["source"] = "xml:" + options.input_xml;
    else if (!options.fsroot.empty()) graph.provenance["source"] = "fsroot:" + options.fsroot;
    else graph.provenance["source"] = "live";

    // An XML export carries hwloc's link speeds only; a sysfs tree (saved or
    // live) has generation and width as well.
    if (options.input_xml.empty()) apply_sysfs_pcie(graph, options.fsroot);

    if (!options.nvml_replay.empty()) {
        merge_nvml(graph, *nvml::open_nvml_replay(options.nvml_replay));
    } else if (live && options.use_nvml) {
        std::string why_not;
        if (auto source = nvml::open_live_nvml(&why_not)) merge_nvml(graph, *source);
        else graph.notes.push_back("NVML unavailable: " + why_not);
    }
#ifdef HWCOMM_HAVE_CUDA
    if (live && options.use_cuda) merge_cuda(graph);
#endif
    assign_gpu_ids(graph);
    if (graph.of_kind(VertexKind::Gpu).empty()) graph.notes.push_back("no GPU found: CPU-only graph");
    return graph;
}

}  // namespace hwcomm
