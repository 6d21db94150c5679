#include "run/transfer_plan.hpp"

#include "catalog/method_names.hpp"
#include "catalog/method_params.hpp"
#include "core/error.hpp"
#include "core/results.hpp"

namespace hwcomm {

std::vector<PlannedRecord> build_transfer_plan(const Registry& registry, const std::vector<ResolvedSet>& sets) {
    const Characterizer* method = registry.find(method_name::kTransferSet);
    if (!method) throw UsageError("this build has no transfer-set method");
    std::vector<PlannedRecord> plan;
    for (const ResolvedSet& s : sets) {
        EndpointSet endpoints;
        endpoints.src_id = s.src_id;
        endpoints.dst_id = s.dst_id;
        endpoints.vertices = s.vertices;
        endpoints.note = "transfer set '" + s.name + "' (" + std::to_string(s.transfers.size()) + " transfers)";
        endpoints.applicability = Applicability::yes();
        const ParamSet params{{TransferSetParam::key, s.name}};
        PlannedRecord p{method, nullptr, nullptr, params, record_key(method->name(), s.src_id, s.dst_id, params),
                        s.src_id, s.dst_id, std::move(endpoints)};
        if (s.bytes) p.sizes = {s.bytes};
        plan.push_back(std::move(p));
    }
    return plan;
}

}  // namespace hwcomm
