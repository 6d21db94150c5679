#pragma once
// Which sizes a record measures (issue 21, items 4 and 5): a full sweep
// climbs the adaptive ladder (measure/size_ladder.hpp) over the method's
// candidate sizes, or measures the run's fixed sizes (--exhaustive, methods
// whose points are not one bandwidth-vs-size curve); a confirmation measures
// a few sizes of its representative's curve.
#include <cstdint>
#include <string>
#include <vector>

#include "catalog/method_row.hpp"
#include "measure/size_ladder.hpp"
#include "methods/characterizer.hpp"
#include "run/run_options.hpp"

namespace hwcomm {

struct SizePlan {
    bool ladder = false;                // climb a ladder over `sizes`; else measure them all
    std::vector<std::uint64_t> sizes;   // ascending: the ladder's first pass, or every size
    std::vector<std::uint64_t> intermediates;  // the ladder's sizes between them, for bends
    LadderOptions ladder_options;
    std::uint64_t prepare_bytes = 0;    // the largest transfer the session is prepared for
    // A ladder's session is first prepared for this size (where the cost
    // model expects the ladder to stop), and again for prepare_bytes only if
    // the ladder climbs past it: pinning 1 GiB of host memory costs a copy
    // that stops at 256 MiB 0.3-0.4 s more than pinning 256 MiB (one H100,
    // eb1a3e9). 0: prepare_bytes from the start.
    std::uint64_t first_prepare_bytes = 0;
    std::string shared_from;            // the record whose ladder this one reuses (disk-read's io modes)
};

// The plan traits of the method's catalog row (defaults for a method without one: tests' fakes).
const PlanTraits& plan_traits(const std::string& method);

// The run's sizes under the method's size policy: what --exhaustive measures.
std::vector<std::uint64_t> fixed_sizes(const Characterizer& method, const RunOptions& options);

// Why no size of this run is one the method measures, or "" when some is:
// the gpumem methods that measure one footprint (1 GiB) have nothing to
// measure in a run that stops below it (--quick: 64 MiB), and their record
// says so as skipped rather than "ok" with no point (which summary read as
// failed).
std::string no_size_applies(const Characterizer& method, const RunOptions& options);

// Whether a full sweep of this method climbs a ladder: its row says so (the
// gpumem methods measure footprints, whose cache steps a plateau rule would
// cut off; both ranks of an mpi pair must measure the same sizes) and it has
// no other axes.
bool climbs_ladder(const Characterizer& method);

// Methods other than the CPU-memory ones refine no step above this size.
inline constexpr std::uint64_t kGpuRefineMaxBytes = std::uint64_t{256} << 20;

// The ladder's intermediate sizes: two per octave between the run's sizes
// (third-octave points), under the method's size policy; none for a method
// with its own spacing, for --quick (a coarse first look) or for a row
// without intermediates (disk-read); up to kGpuRefineMaxBytes for a method
// outside the CPU-memory family.
std::vector<std::uint64_t> ladder_intermediates(const Characterizer& method, const RunOptions& options);

// A record's own sizes (a --transfers set of one size): exactly those, no ladder.
SizePlan own_size_plan(const std::vector<std::uint64_t>& sizes);

// A full sweep of a record of `method` (ladder unless exhaustive or not a curve).
SizePlan full_size_plan(const Characterizer& method, const RunOptions& options);

// Records whose keys differ only in the row's shared_ladder_params share one
// ladder: the first measured one climbs it, the others measure the sizes it
// chose (disk-read's io modes, item 7).
// The key of the ladder a record shares: its key without those parameters.
std::string ladder_group_key(const std::string& method, const std::string& src, const std::string& dst,
                             const std::map<std::string, std::string>& params);

}  // namespace hwcomm
