#pragma once
// Identical-link classes: endpoint pairs (and concurrency sets) whose paths
// through the machine graph are equivalent, so that one representative can be
// measured thoroughly and the other members confirmed cheaply (issue 21).
// Two members are alike when they cross the same sequence of edge kinds with
// the same stated rates and link counts, their host end has the same NUMA
// relation (local, or how many SMP hops away), the bridges on the way hold the
// same number of GPUs (PCIe switch sharing), and GPU pairs reach each other
// through the same NVSwitch arrangement. Graph logic only, no measurement.
// docs/classes.md describes the signature and the order of classes.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/graph.hpp"

namespace hwcomm {

// One member: an ordered pair of vertex ids, or a group record's (src_id,
// dst_id) as written in records ("gpu*", "gpu*-gpu1", "gpu0+gpu2", "numa0").
struct ClassMember {
    std::string src, dst;
    auto operator<=>(const ClassMember&) const = default;
};

struct LinkClass {
    std::string id;            // "c0", "c1", ... in the order of their representatives (docs/classes.md)
    std::string signature;     // canonical text of what makes members alike
    std::string description;   // one line for people ("GPU -> GPU, NV18 through 4 NVSwitches, 478.125 GB/s")
    std::vector<ClassMember> members;  // sorted (natural order of ids); members.front() is the representative
    bool rates_known = true;   // false: some edge has no stated rate; grouped by structure only
};

struct ClassMap {
    std::vector<LinkClass> classes;
    std::vector<std::string> notes;  // e.g. "link rates unknown: grouped by structure"
    const LinkClass* find(const ClassMember& member) const;  // nullptr when not classified
};

// Partitions `members` (pairs of any vertex kinds, or group-record endpoint
// ids) into classes of equivalent paths. Duplicates count once; a member that
// names no vertex of the graph is left out with a note.
ClassMap classify(const Graph& graph, const std::vector<ClassMember>& members);

// The pairs `hwcomm topo` classifies: every ordered pair of distinct GPUs,
// every host NUMA node (with CPUs and memory) to every GPU and back, and every
// ordered pair of distinct host nodes.
std::vector<ClassMember> topology_members(const Graph& graph);

nlohmann::json class_map_to_json(const ClassMap& map);
// Throws UsageError (one line) on malformed input.
ClassMap class_map_from_json(const nlohmann::json& j);

// Natural order of ids ("gpu2" before "gpu10"): the order of members and classes.
bool natural_less(const std::string& a, const std::string& b);
bool natural_less(const ClassMember& a, const ClassMember& b);

}  // namespace hwcomm
