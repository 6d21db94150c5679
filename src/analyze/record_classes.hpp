#pragma once
// The identical-link classes of a results file's records (classes/): the ones
// the run stored (key "link_classes") when they cover every record, else
// classified now from the file's topology. And the parameters that make two
// records of one class comparable.
#include <map>
#include <string>

#include "classes/link_classes.hpp"
#include "core/graph.hpp"
#include "core/results.hpp"

namespace hwcomm::analyze {

// Throws UsageError (one line naming `name`) when the stored classes are malformed.
// Empty when the file has neither classes covering its records nor a topology.
ClassMap record_classes(const ResultsFile& file, const Graph* topology, const std::string& name);

inline ClassMember member_of(const Record& r) { return {r.src, r.dst}; }

// A record's params less a "numa" that only repeats its NUMA endpoint
// (numa1 -> gpu4 with numa=1 is comparable with numa0 -> gpu0 with numa=0).
std::map<std::string, std::string> comparable_params(const Record& r);

// How the run measured the record: "full", "confirmed" or "promoted"
// (docs/schema.md); "full" when the file does not say (older files, imports).
std::string measured_as(const Record& r);
// The same for people: a confirmation measured as a lane of a round says so.
std::string measured_as_text(const Record& r);

}  // namespace hwcomm::analyze
