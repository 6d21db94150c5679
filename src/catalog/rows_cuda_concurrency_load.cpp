// Rows of CUDA methods that run several transfers at once: concurrency sets
// and transfers against background load.
#include "catalog/method_catalog.hpp"
#include "catalog/row_helpers.hpp"

namespace hwcomm {

std::vector<MethodRow> cuda_concurrency_and_load_rows() {
    using namespace rows;
    namespace n = method_name;
    const ParamDecl mode{CopyMode::key, {CopyMode::Ce, CopyMode::Sm}};
    const ParamDecl initiator{Initiator::key, {Initiator::Src, Initiator::Dst}};
    return {
        {.name = n::kAllToHost,
         .family = MethodFamily::Concurrency,
         .build = MethodBuild::Cuda,
         .src_kinds = kGpu,
         .dst_kinds = kNuma,
         .params = {mode},
         .solo = solo_by_lane_direction()},
        {.name = n::kHostToAll,
         .family = MethodFamily::Concurrency,
         .build = MethodBuild::Cuda,
         .src_kinds = kNuma,
         .dst_kinds = kGpu,
         .params = {mode},
         .solo = solo_by_lane_direction()},
        {.name = n::kAllToOne,
         .family = MethodFamily::Concurrency,
         .build = MethodBuild::Cuda,
         .src_kinds = kGpu,
         .dst_kinds = kGpu,
         .params = {mode, initiator},
         .solo = solo_by_lane_direction()},
        {.name = n::kOneToAll,
         .family = MethodFamily::Concurrency,
         .build = MethodBuild::Cuda,
         .src_kinds = kGpu,
         .dst_kinds = kGpu,
         .params = {mode, initiator},
         .solo = solo_by_lane_direction()},
        {.name = n::kPairsSharingALink,
         .family = MethodFamily::Concurrency,
         .build = MethodBuild::Cuda,
         .src_kinds = kNumaOrGpu,
         .dst_kinds = kNumaOrGpu,
         .params = {{CopyMode::key, {CopyMode::Ce}}},
         .solo = solo_by_lane_direction()},
        {.name = n::kUnderLoad,
         .family = MethodFamily::Load,
         .build = MethodBuild::Cuda,
         .src_kinds = kNumaOrGpu,
         .dst_kinds = kNumaOrGpu,
         .params = {{LoadsParam::key, {}}, {WithParam::key, {}}},
         .solo = solo_by_lane_direction(),
         .view = MethodView::UnderLoadTable,
         .plan = {.heavy = true}},
        {.name = n::kLaneSweep,
         .family = MethodFamily::Concurrency,
         .build = MethodBuild::Cuda,
         .src_kinds = kNumaOrGpu,
         .dst_kinds = kNumaOrGpu,
         .params = {{LanesParam::key, {}}, {CopyMode::key, {CopyMode::Ce}}},
         .solo = solo_by_lane_direction(),
         .plan = {.heavy = true}},  // no constants of its own: the plan borrows a concurrency method's
        {.name = n::kInFlight,
         .family = MethodFamily::Load,
         .build = MethodBuild::Cuda,
         .src_kinds = kNumaOrGpu,
         .dst_kinds = kNumaOrGpu,
         .axes = {{"in_flight", "transfers"}, {"streams", ""}},
         .solo = solo_by_lane_direction(),
         .plan = {.ladder = false, .representatives_only = true}},
        {.name = n::kPriority,
         .family = MethodFamily::Load,
         .build = MethodBuild::Cuda,
         .src_kinds = kNumaOrGpu,
         .dst_kinds = kNumaOrGpu,
         .params = {{EngineParam::key, {EngineParam::Sm, EngineParam::Ce}}},
         .axes = {{"priority", ""}},
         .solo = solo_by_lane_direction(),
         // Points are completion times against a load (a wait included), never a link's rate.
         .headline = {HeadlineKind::TimeAtSmallest, "seconds", "us"},
         .view = MethodView::PriorityTable,
         .plan = {.ladder = false, .representatives_only = true}},
    };
}

}  // namespace hwcomm
