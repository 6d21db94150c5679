#pragma once
// What analyze reads of a representative measured again beside its class's
// confirmations (context.recheck, run/representative_recheck.hpp). Its sweep
// ran earlier than its siblings' confirmations and the host side moves with
// time, so the class comparisons (identical-link cells, outliers) take the
// second measurement at the sizes it covers; the record's own curve (summary,
// efficiency) stays its sweep.
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "analyze/study.hpp"

namespace hwcomm::analyze {

// Size -> GB/s measured again (points without axes); empty without a recheck
// or when the second measurement failed.
std::map<std::uint64_t, double> rechecked_gbps(const Record& record);

// "representative-measured-again": what the second measurement said.
std::optional<Anomaly> recheck_anomaly(const Record& record);

// summary's note: "its class put it outside (the run's reason); measured
// again beside it: +28.5%, outside again (the link's)"; "" without a recheck.
std::string recheck_note(const Record& record);

}  // namespace hwcomm::analyze
