#include "run/size_plan.hpp"

#include <algorithm>

#include "catalog/method_catalog.hpp"
#include "core/results.hpp"
#include "measure/byte_size.hpp"
#include "measure/sweep.hpp"

namespace hwcomm {

std::vector<std::uint64_t> fixed_sizes(const Characterizer& method, const RunOptions& options) {
    return method.size_policy().apply(options.sizes);
}

std::string no_size_applies(const Characterizer& method, const RunOptions& options) {
    if (options.sizes.empty() || !fixed_sizes(method, options).empty()) return "";
    const SizePolicy policy = method.size_policy();
    std::string measures = policy.max_bytes && policy.max_bytes == policy.min_bytes
                               ? format_size(policy.min_bytes) + " only"
                           : policy.max_bytes ? format_size(policy.min_bytes) + "-" + format_size(policy.max_bytes)
                                              : "from " + format_size(policy.min_bytes);
    const auto [lo, hi] = std::minmax_element(options.sizes.begin(), options.sizes.end());
    return "no size of this run applies: " + method.name() + " measures " + measures + ", this run " +
           format_size(*lo) + "-" + format_size(*hi) + " (--min-size/--max-size to include it)";
}

const PlanTraits& plan_traits(const std::string& method) {
    static const PlanTraits none;  // a method without a catalog row (tests' scripted methods)
    const MethodRow* row = builtin_catalog().find(method);
    return row ? row->plan : none;
}

bool climbs_ladder(const Characterizer& method) { return method.axes().empty() && plan_traits(method.name()).ladder; }

std::vector<std::uint64_t> ladder_intermediates(const Characterizer& method, const RunOptions& options) {
    const SizePolicy policy = method.size_policy();
    // --quick is a coarse first look: its sizes only.
    if (policy.points_per_octave != 0 || options.sizes.empty() || options.quick) return {};
    const MethodRow* row = builtin_catalog().find(method.name());
    if (row && !row->plan.intermediates) return {};
    // Above 256 MiB only a host cache can bend a curve (GPU L2s end below it:
    // 50-60 MiB on H100/H200, 126 MiB on B200), so only the CPU-memory methods
    // refine there; another method's octaves still show a host-LLC edge. A
    // drifting pageable or unified-memory path bought 2.7-3.8 s of sizes
    // between 256 MiB and 1 GiB on two of three H100 default runs (e778fdd).
    const std::uint64_t refine_max =
        row && row->family != MethodFamily::CpuMemory ? kGpuRefineMaxBytes : UINT64_MAX;
    SweepOptions thirds = options.sweep;
    thirds.points_per_octave = 3;
    std::vector<std::uint64_t> between;
    for (std::uint64_t s : sweep_sizes(thirds))
        if (s > options.sizes.front() && s < options.sizes.back()) between.push_back(s);
    const std::vector<std::uint64_t> octaves = fixed_sizes(method, options);
    std::vector<std::uint64_t> out;
    for (std::uint64_t s : policy.apply(between))
        if (s <= refine_max && !std::binary_search(octaves.begin(), octaves.end(), s)) out.push_back(s);
    return out;
}

SizePlan own_size_plan(const std::vector<std::uint64_t>& sizes) {
    SizePlan plan;
    plan.sizes = sizes;
    plan.prepare_bytes = sizes.empty() ? 0 : sizes.back();
    return plan;
}

SizePlan full_size_plan(const Characterizer& method, const RunOptions& options) {
    SizePlan plan;
    plan.prepare_bytes = options.sizes.empty() ? 0 : options.sizes.back();  // as runs before ladders prepared
    if (options.plan.exhaustive || !climbs_ladder(method)) {
        plan.sizes = fixed_sizes(method, options);
        return plan;
    }
    plan.ladder = true;
    plan.sizes = fixed_sizes(method, options);
    plan.intermediates = ladder_intermediates(method, options);
    plan.ladder_options.octave_step = options.plan.ladder_octave_step;
    return plan;
}

std::string ladder_group_key(const std::string& method, const std::string& src, const std::string& dst,
                             const std::map<std::string, std::string>& params) {
    std::map<std::string, std::string> kept = params;
    for (const std::string& p : plan_traits(method).shared_ladder_params) kept.erase(p);
    return record_key(method, src, dst, kept);
}

}  // namespace hwcomm
