#pragma once
// `hwcomm summary`'s section for the gpumem-* records (docs/gpumem.md): their
// own facts (peak read and its configuration, where Little's law says the
// kernel is latency- or bandwidth-bound, sectors per request, per-warp
// latency and block gap, the latency ladder) instead of the size-curve
// columns of the main table, which would be misleading for them.
#include <string>
#include <vector>

#include "catalog/method_catalog.hpp"
#include "core/results.hpp"

namespace hwcomm::analyze {

// One block per gpumem record of `records`, "" when there is none. `source`
// ("#2") prefixes each record's line when several files are summarised.
std::string format_gpumem_summary(const std::vector<Record>& records, const MethodCatalog& catalog,
                                  const std::string& source = "");

}  // namespace hwcomm::analyze
