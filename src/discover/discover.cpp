// discover_machine: hwloc first (live, XML or sysfs tree), then sysfs PCIe link
// state, then NVML (live on this machine, or a replayed recording), then the
// CUDA runtime (live machine, CUDA builds), then stable GPU ids.
#include "discover/discover.hpp"

#include <filesystem>

#include "core/error.hpp"

#include "discover/gpu_ids.hpp"
#include "discover/hwloc_loader.hpp"
#include "discover/hwloc_source.hpp"
#include "discover/nvml_source.hpp"
#include "discover/nvswitches.hpp"
#include "discover/sysfs_source.hpp"
#include "discover/valid_text.hpp"
#ifdef HWCOMM_HAVE_CUDA
#include "discover/cuda_source.hpp"
#endif

namespace hwcomm {

namespace {

// A recording describes one machine: replayed onto another, its GPUs would
// hang off whatever PCI devices happen to share their addresses.
void require_recorded_machine(const Graph& graph, const nvml::NvmlSource& source, const DiscoverOptions& options) {
    const std::string machine = options.input_xml.empty() ? options.fsroot.empty() ? "this machine" : options.fsroot
                                                          : options.input_xml;
    for (unsigned i = 0; i < source.device_count(); ++i) {
        const std::string bus_id = source.device(i).pci_bus_id;
        const auto pci = PciAddress::parse(bus_id);
        const Vertex* found = pci ? graph.find_by_pci(*pci) : nullptr;
        if (found && found->kind == VertexKind::Gpu) continue;
        throw UsageError("--nvml-replay " + options.nvml_replay + " was recorded on another machine: its GPU " + bus_id +
                         " is not a GPU of " + machine +
                         " (replay it with --input and the recorded machine's hwloc export)");
    }
}

// SXM GPUs always have NVLink: an export without any NVLink data (an IBM
// AC922 export without distances) must not pass PCIe classes off as the truth.
void note_missing_nvlink(Graph& graph) {
    for (const Edge& e : graph.edges())
        if (e.kind == EdgeKind::NvLink) return;
    for (const Vertex* v : graph.of_kind(VertexKind::Gpu))
        if (v->gpu && v->gpu->model.find("SXM") != std::string::npos) {
            graph.notes.push_back("NVLink data is absent although " + v->id + " (" + v->gpu->model +
                                  ") is an SXM GPU with NVLink: classes and paths below show PCIe only");
            return;
        }
}

}  // namespace

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
        const auto replay = nvml::open_nvml_replay(options.nvml_replay);
        require_recorded_machine(graph, *replay, options);
        merge_nvml(graph, *replay);
    } else if (live && options.use_nvml) {
        std::string why_not;
        if (auto source = nvml::open_live_nvml(&why_not)) merge_nvml(graph, *source);
        else graph.notes.push_back("NVML unavailable: " + why_not);
    }
#ifdef HWCOMM_HAVE_CUDA
    if (live && options.use_cuda) merge_cuda(graph);
#endif
    // A file without CUDA facts (no CUDA OS devices) still plans GPU methods.
    if (!live) infer_cuda_ordinals(graph);
    assign_gpu_ids(graph);
    assign_nvswitch_ids(graph);
    join_nvswitch_fabric(graph);
    note_missing_nvlink(graph);
    if (graph.of_kind(VertexKind::Gpu).empty()) graph.notes.push_back("no GPU found: CPU-only graph");
    make_graph_text_valid(graph);  // last: every source's strings, once
    return graph;
}

}  // namespace hwcomm
