#pragma once
// The class-reduced plan (issue 21, item 4): records of one method and
// parameter set whose endpoints are in one link class (classes/) share a
// representative, which gets the full sweep, as does its reverse pair where
// it is in the same class (both directions); every other member is a
// confirmation. Every full record comes before any confirmation, so a run cut
// short has measured every kind of link. Methods measured on representatives
// only (priority, in-flight: item 7) keep no confirmations.
#include <string>
#include <vector>

#include "classes/link_classes.hpp"
#include "run/plan.hpp"

namespace hwcomm {

// Every distinct (src, dst) of the plan, as records write them: what to classify.
std::vector<ClassMember> plan_members(const std::vector<PlannedRecord>& plan);

// Methods whose non-representative records are not planned (unless exhaustive): the catalog row says.
bool representatives_only(const std::string& method);

// The parameters that make records of one class comparable: the record's own,
// less a "numa" that only repeats its NUMA endpoint (numa0 -> gpu0, numa=0).
std::string comparable_params(const PlannedRecord& record);

// Marks every record of `plan` (class_id, measured_as, representative_key)
// and orders it: full records first, each part in plan order. Exhaustive:
// every record full, the order kept (classes are still named). Concurrency
// sets of one group that compete for the same link (EndpointSet::shared_link)
// get one confirmation per link, the representative's link none: every link
// is still tested, and the sets grow with the links, not with the pairs of
// routes through each (pairs-sharing-a-link on the 16-GPU DGX-2 fixture:
// 1797 confirmations, 15 routes out of each GPU's NVLinks two by two). What
// was left out is said in `notes` when given.
// Pair confirmations then go in rounds or covers (run/confirmation_rounds.hpp),
// which need `graph` for the members' routes; covered records come last.
// `rounds` false: no rounds (--timing wall: the lanes are timed by CUDA
// events, the representative by the host clock; they would not compare).
std::vector<PlannedRecord> apply_classes(std::vector<PlannedRecord> plan, const ClassMap& classes, const Graph& graph,
                                         bool exhaustive, std::vector<std::string>* notes = nullptr,
                                         bool rounds = true);

}  // namespace hwcomm
