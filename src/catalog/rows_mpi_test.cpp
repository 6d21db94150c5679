// Rows of the methods between ranks of hwcomm run --mpi, and of the test-only
// fault methods.
#include "catalog/method_catalog.hpp"
#include "catalog/row_helpers.hpp"

namespace hwcomm {

std::vector<MethodRow> mpi_rows() {
    using namespace rows;
    namespace n = method_name;
    const ParamDecl op{MpiOp::key, {MpiOp::Sendrecv, MpiOp::Put}};
    const ParamDecl direction{MpiDirection::key, {MpiDirection::Uni, MpiDirection::Bi}};
    const Duplex when_bi{DuplexConvention::Sum, MpiDirection::key, MpiDirection::Bi};
    return {
        {.name = n::kMpiHost,
         .family = MethodFamily::Mpi,
         .build = MethodBuild::Mpi,
         .src_kinds = kNumaOrGpu,
         .dst_kinds = kNumaOrGpu,
         .params = {op, direction, {MpiPlacement::key, {MpiPlacement::NearNic, MpiPlacement::Far}}},
         .duplex = when_bi,
         .plan = {.ladder = false}},
        {.name = n::kMpiGpu,
         .family = MethodFamily::Mpi,
         .build = MethodBuild::Mpi,
         .src_kinds = kNumaOrGpu,
         .dst_kinds = kNumaOrGpu,
         .params = {op, direction, {MpiPath::key, {MpiPath::CudaAware, MpiPath::Staged}}},
         .duplex = when_bi,
         .plan = {.ladder = false}},
    };
}

std::vector<MethodRow> test_fault_rows() {
    using namespace rows;
    namespace n = method_name;
    std::vector<MethodRow> out;
    for (const char* name : {n::kFaultAlloc, n::kFaultPeer, n::kFaultKernel, n::kFaultVanish})
        out.push_back({.name = name,
                       .family = MethodFamily::TestFault,
                       .build = MethodBuild::CudaTestOnly,
                       .src_kinds = kGpu,
                       .dst_kinds = kGpu});
    return out;
}

}  // namespace hwcomm
