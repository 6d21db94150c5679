#include "discover/cuda_source.hpp"

#include <dlfcn.h>

#include <cuda_runtime_api.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace hwcomm {

namespace {

// The driver's library, as the CUDA runtime looks for it.
bool driver_library_present() {
    void* lib = ::dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!lib) return false;
    ::dlclose(lib);
    return true;
}

// Why the runtime sees no device, in the words a user can act on: the
// runtime reports "driver version is insufficient" also where no NVIDIA
// driver is installed at all.
std::string why_no_device(cudaError_t rc) {
    if (rc == cudaErrorInsufficientDriver && !driver_library_present())
        return "no NVIDIA driver (libcuda.so.1 not found)";
    if (rc == cudaErrorInsufficientDriver)
        return std::string("the NVIDIA driver is older than this CUDA runtime needs (") + cudaGetErrorString(rc) + ")";
    if (rc == cudaErrorNoDevice) return std::string("no CUDA GPU (") + cudaGetErrorString(rc) + ")";
    return std::string("cannot count devices (") + cudaGetErrorString(rc) + ")";
}

}  // namespace

int merge_cuda(Graph& graph) {
    int count = 0;
    if (const cudaError_t rc = cudaGetDeviceCount(&count); rc != cudaSuccess) {
        graph.notes.push_back("CUDA runtime: " + why_no_device(rc));
        return 0;
    }
    const char* order = std::getenv("CUDA_DEVICE_ORDER");
    graph.provenance["cuda_device_order"] = order ? order : "FASTEST_FIRST (default)";
    int runtime = 0;
    if (cudaRuntimeGetVersion(&runtime) == cudaSuccess) graph.provenance["cuda_runtime_version"] = std::to_string(runtime);

    std::vector<std::string> ids(static_cast<std::size_t>(count));
    for (int dev = 0; dev < count; ++dev) {
        char bus[32] = {};
        if (cudaDeviceGetPCIBusId(bus, sizeof bus, dev) != cudaSuccess) continue;
        auto pci = PciAddress::parse(bus);
        const Vertex* found = pci ? graph.find_by_pci(*pci) : nullptr;
        if (!found) {
            graph.notes.push_back("CUDA device " + std::to_string(dev) + " (" + bus + ") is not in the topology");
            continue;
        }
        Vertex& v = *graph.find(found->id);
        v.kind = VertexKind::Gpu;
        if (!v.gpu) v.gpu = GpuInfo{};
        cudaDeviceProp prop{};
        if (cudaGetDeviceProperties(&prop, dev) == cudaSuccess) {
            if (v.gpu->model.empty()) v.gpu->model = v.name = prop.name;
            v.gpu->memory_bytes = prop.totalGlobalMem;
        }
        int value = 0;
        if (cudaDeviceGetAttribute(&value, cudaDevAttrMultiProcessorCount, dev) == cudaSuccess) v.gpu->sm_count = value;
        if (cudaDeviceGetAttribute(&value, cudaDevAttrComputeCapabilityMajor, dev) == cudaSuccess) v.gpu->cc_major = value;
        if (cudaDeviceGetAttribute(&value, cudaDevAttrComputeCapabilityMinor, dev) == cudaSuccess) v.gpu->cc_minor = value;
        v.gpu->cuda_ordinal = dev;
        ids[static_cast<std::size_t>(dev)] = v.id;
    }
    // Peer facts keyed by CUDA ordinal: ids change when GPUs are renumbered.
    for (int a = 0; a < count; ++a) {
        if (ids[static_cast<std::size_t>(a)].empty()) continue;
        Vertex& v = *graph.find(ids[static_cast<std::size_t>(a)]);
        for (int b = 0; b < count; ++b) {
            if (a == b) continue;
            int can = 0, rank = 0;
            const std::string key = "cuda" + std::to_string(b);
            if (cudaDeviceCanAccessPeer(&can, a, b) == cudaSuccess) v.attrs["peer_access_to_" + key] = can ? "yes" : "no";
            if (cudaDeviceGetP2PAttribute(&rank, cudaDevP2PAttrPerformanceRank, a, b) == cudaSuccess)
                v.attrs["p2p_rank_to_" + key] = std::to_string(rank);
        }
    }
    cudaGetLastError();  // clear any sticky error a query above left behind
    return count;
}

}  // namespace hwcomm
