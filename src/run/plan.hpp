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
    // How the plan measures it (run/class_plan.hpp): "full", "confirmed" (a
    // few sizes compared with `representative_key`'s record) or "covered" (its
    // links confirmed by other members: measured as a confirmation only when
    // a record of its pair is promoted; run/confirmation_rounds.hpp).
    std::string measured_as = "full";
    std::string class_id;            // its link class, "" when not classified
    std::string representative_key;  // confirmed: the record of its class representative
    // A confirmation round (run/confirmation_rounds.hpp): the members measured
    // together, one lane each; empty for every other record.
    std::vector<PlannedRecord> round;

    // Every vertex the record's lanes touch (for device state snapshots).
    std::vector<const Vertex*> vertices() const;
};

// The keys of the records a planned record writes: a round's lanes', none for
// a covered member (written only if its pair is promoted), else its own.
std::vector<std::string> written_keys(const PlannedRecord& planned);
// How many records the plan writes (rounds count their lanes; covered none).
std::size_t written_record_count(const std::vector<PlannedRecord>& plan);

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
