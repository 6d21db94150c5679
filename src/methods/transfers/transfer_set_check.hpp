#pragma once
// A transfer-set file resolved against a machine's graph: every endpoint
// known and usable, every executor applicable to its pair, no transfer twice
// in a set, every set's buffers within the memory free. Graph logic only (no
// CUDA), so a file is checked the same way by `hwcomm run`, `hwcomm list
// --input` and `hwcomm predict`, in every build, before anything is measured.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/graph.hpp"
#include "core/results.hpp"
#include "methods/transfers/transfer_set.hpp"

namespace hwcomm {

struct ResolvedTransfer {
    TransferLine line;                 // as written
    const Vertex* src = nullptr;
    const Vertex* dst = nullptr;
    // GPU executors: the GPU whose stream issues the copy; cpu: the NUMA node whose cores copy.
    const Vertex* on = nullptr;
    std::string host_mem;              // a GPU executor's host end: its kind (default pinned); else ""
    std::string peer;                  // two distinct GPUs: "on" with a peer path in the graph, else "off"
    std::string label;                 // unique within the set: "gpu0->gpu1", or "gpu0->gpu1/sm" beside another executor

    bool gpu_executor() const { return line.executor != TransferExecutor::Cpu; }
    // The lane as the record keeps it: method transfer-set, params executor,
    // host_mem, peer, initiator, units, workers_numa (docs/transfers.md).
    LaneSpec lane() const;
};

struct ResolvedSet {
    std::string name;
    std::size_t line = 0;
    std::uint64_t bytes = 0;           // 0: the run's sizes
    std::vector<ResolvedTransfer> transfers;
    std::string src_id, dst_id;        // the record's ends: "gpu0+gpu1" (sources, destinations in graph order)
    std::vector<const Vertex*> vertices;  // every endpoint and executor, in graph order
    bool needs_gpu() const;
};

// What the machine can give beyond its graph.
struct TransferSetMachine {
    bool cuda = true;  // this build measures ce and sm executors
    bool tma = false;  // ...and tma
    // Bytes the buffers of one set may take on a vertex; nullopt: unknown, not checked.
    std::function<std::optional<std::uint64_t>(const Vertex&)> free_bytes;
};

// Free memory as the graph states it (a GPU's or NUMA node's memory_bytes):
// for `list --input` and predict, which look at a machine they do not run on.
std::optional<std::uint64_t> graph_memory_bytes(const Vertex& v);
// Shares of free memory one set may take (the CUDA sizing leaves the rest to
// the driver, the OS and the run): GPUs 90%, host nodes 50%.
inline constexpr double kTransferDeviceShare = 0.90;
inline constexpr double kTransferHostShare = 0.50;

// Every set resolved, in file order. Throws UsageError "SOURCE:LINE: why"
// naming the first transfer that cannot be measured here.
std::vector<ResolvedSet> resolve_transfer_sets(const Graph& graph, const TransferSetFile& file,
                                               const TransferSetMachine& machine);

// The endpoints a transfer may name: NUMA nodes with memory and CUDA GPUs.
std::vector<const Vertex*> transfer_endpoints(const Graph& graph);

}  // namespace hwcomm
