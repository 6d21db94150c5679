#pragma once
// Where the pages of a range are resident as the CPU's page tables see it
// (move_pages(2) with no target nodes: a query, it moves and faults nothing).
// Managed pages that live on a GPU are not present in the CPU's page tables,
// so this tells "on host node N" from "elsewhere" after a prefetch or a reset.
// No CUDA: works on any memory.
#include <cstddef>
#include <map>

#include <nlohmann/json.hpp>

namespace hwcomm::cuda {

struct HostResidency {
    std::size_t pages = 0;
    std::map<int, std::size_t> on_node;  // NUMA OS index -> pages present there
    std::size_t not_present = 0;         // not in the CPU's page tables (on a GPU, or never touched)
    std::size_t unknown = 0;             // other errors, or the query failed
    std::size_t present() const;
};

// Queries every page of data[0, bytes) (whole pages of the system page size).
HostResidency host_residency(const void* data, std::size_t bytes);
nlohmann::json to_json(const HostResidency& r);

}  // namespace hwcomm::cuda
