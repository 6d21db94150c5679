#pragma once
// Fixture machines for the class tests: hwloc exports and the NVML recordings
// of the 2x and 4x H200 machines (their CPU side: one package, one NUMA node).
#include <string>
#include <vector>

#include "classes/link_classes.hpp"
#include "core/graph.hpp"

namespace hwcomm::test {

Graph xml_graph(const std::string& name);
Graph nvml_graph(const std::string& recording, unsigned cpus);

// Every ordered GPU pair, every NUMA node (with CPUs) to every GPU and back.
std::vector<ClassMember> gpu_pairs(const Graph& graph);
std::vector<ClassMember> host_gpu_pairs(const Graph& graph);

// Class sizes, largest first, for compact assertions.
std::vector<std::size_t> sizes(const ClassMap& map);
// The class of a member, for messages and assertions ("" when none).
std::string class_of(const ClassMap& map, const std::string& src, const std::string& dst);
std::string dump(const ClassMap& map);

}  // namespace hwcomm::test
