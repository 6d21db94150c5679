#pragma once
// Migration of older results files to the current structs, on read.
#include "core/results.hpp"

namespace hwcomm {

// Version 1 (schema_version 1): points and records already have the v2 shape
// minus provenance. Each record gets provenance {"kind":"measured",
// "tool":"hwcomm","revision": meta.git_revision}; meta notes
// "migrated_from_version": 1. Duplex extras (fwd_gbps, rev_gbps, ...) and
// lanes (absent: one lane, the record's own pair) are left as they are.
void migrate_v1(ResultsFile& file);

}  // namespace hwcomm
