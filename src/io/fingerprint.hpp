#pragma once
// The identity of a machine for --resume: its GPUs (UUID and PCI address),
// NUMA nodes (and their cpusets) and CPU model. Not the host name: lent
// machines of different shapes all call themselves "vm". Stored in
// meta.fingerprint when a run starts.
#include <string>

#include <nlohmann/json.hpp>

#include "core/graph.hpp"

namespace hwcomm {

// {"cpu_model": ..., "numa_nodes": [{"id","cpuset"}], "gpus": [{"id","uuid","pci"}]}
nlohmann::json machine_fingerprint(const Graph& graph, const std::string& cpu_model);

// The first difference between this machine's fingerprint and a file's, as a
// sentence ("this machine has 4 GPUs, the file was made on one with 2 (gpu2
// 0000:00:08.0 absent there)"); empty when they match.
std::string fingerprint_difference(const nlohmann::json& here, const nlohmann::json& file);

}  // namespace hwcomm
