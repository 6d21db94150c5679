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

// A confirmation the run measured twice and found outside its class both
// times, on opposite sides, at a size (context.confirmation's
// first_measurement and outside_again_elsewhere: the run kept it as noise):
// there, bytes over the mean of the two measurements' times, since neither
// alone is the link's. On nvidia-h200-x2 at f3424de pageable h2d into gpu1
// read -6.0% then +7.2% from gpu0's sweep at 64 MiB; analyze took the +7.2%
// and called the two links unlike. Empty for any other record.
std::map<std::uint64_t, double> measured_twice_gbps(const Record& record);

// What the first pass of its class compared a record by at some sizes:
// rechecked_gbps, else measured_twice_gbps.
std::map<std::uint64_t, double> first_pass_view(const Record& record);

// What the class comparisons take instead of a record's curve at some sizes:
// first_pass_view, and where its class was measured twice (second_pass_repeat)
// bytes over the mean time of the two measurements there.
std::map<std::uint64_t, double> class_comparison_gbps(const Record& record);

// Every size (points without axes) where the record holds two measurements of
// its link (SameLinkRepeat, analyze/study.hpp).
std::vector<SameLinkRepeat> same_link_repeats(const Record& record);

// The link's two measurements of its class's second pass (context.second_pass,
// run/second_pass.hpp): first = what its class compared it by before there
// (first_pass_view, else its curve), again = the second pass's; nullopt
// without one, when it failed or with nothing before it there.
std::optional<SameLinkRepeat> second_pass_repeat(const Record& record);
// Bytes over the mean time of a link's two measurements.
double mean_of_two(const SameLinkRepeat& repeat);

// summary's note on a confirmation measured twice: "confirmed twice: at 64
// MiB -6.0% then +7.2% from the representative, on either side: kept as
// noise, its class compares it by both"; "... -20.0% then -1.0% ...: the
// second kept"; "" for any other record.
std::string measured_twice_note(const Record& record);

// summary's note on a link of a class measured twice: "its class measured
// twice (its 4 links spread +74.5% at 64 MiB (7.153-12.48 GB/s), measured one
// after another): here 12.48 then 8.72 GB/s (-30.1%); its class compares it by
// both"; "... failed (error)"; "" for any other record.
std::string second_pass_note(const Record& record);

// "representative-measured-again": what the second measurement said.
std::optional<Anomaly> recheck_anomaly(const Record& record);

// summary's note: "its class put it outside (the run's reason); measured
// again beside it: +28.5%, outside again (the link's)"; "" without a recheck.
std::string recheck_note(const Record& record);

}  // namespace hwcomm::analyze
