#pragma once
// What a run measures: every method x ordered vertex pair of its kinds x
// parameter set, keeping the applicable pairs that pass the filters. `hwcomm
// list` shows the same enumeration, with the reasons for the pairs left out.
#include <cstdint>
#include <string>
#include <vector>

#include <optional>

#include "methods/characterizer.hpp"
#include "methods/group_characterizer.hpp"
#include "run/filter.hpp"

namespace hwcomm {

struct PlannedRecord {
    const Characterizer* method = nullptr;
    const Vertex* src = nullptr;  // a pair record's ends; null for a group record
    const Vertex* dst = nullptr;
    ParamSet params;
    std::string key;
    std::string src_id, dst_id;          // as written in the record
    std::optional<EndpointSet> set;      // a group record's endpoints (concurrency methods)
    std::vector<std::uint64_t> sizes;    // the record's own sizes (a --transfers set's); empty: the run's
    // How the plan measures it (run/class_plan.hpp): "full" or "confirmed"
    // (a few sizes compared with `representative_key`'s record).
    std::string measured_as = "full";
    std::string class_id;            // its link class, "" when not classified
    std::string representative_key;  // confirmed: the record of its class representative

    // Every vertex the record's lanes touch (for device state snapshots).
    std::vector<const Vertex*> vertices() const;
};

struct PairApplicability {
    const Vertex* src = nullptr;
    const Vertex* dst = nullptr;
    Applicability applicability;
};

// Every ordered pair (same-vertex pairs included) of the method's kinds.
std::vector<PairApplicability> method_pairs(const Graph& graph, const Characterizer& method);

std::vector<PlannedRecord> build_plan(const Graph& graph, const Registry& registry, const Filters& filters,
                                      const MethodOptions& options);

}  // namespace hwcomm
