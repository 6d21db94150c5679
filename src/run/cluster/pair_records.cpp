#include "run/cluster/pair_records.hpp"

#include "catalog/method_names.hpp"
#include "catalog/method_params.hpp"
#include "core/results.hpp"

namespace hwcomm {

namespace {

InterNodeRecord make_record(const std::string& method, const std::string& src, const std::string& dst, ParamSet params) {
    InterNodeRecord r{method, src, dst, std::move(params), ""};
    r.key = record_key(r.method, r.src, r.dst, r.params);
    return r;
}

// A node whose discovery failed has no NUMA id: its records name its host.
std::string at(const LocalEnds& e, const std::string& local) { return e.node + ":" + (local.empty() ? "host" : local); }

}  // namespace

std::vector<InterNodeRecord> records_initiated_by(const LocalEnds& me, const LocalEnds& peer, bool lower,
                                                  const InterNodeSelection& selection) {
    std::vector<InterNodeRecord> out;
    std::vector<std::string> directions{MpiDirection::Uni};
    if (lower) directions.push_back(MpiDirection::Bi);
    if (selection.host) {
        std::vector<std::string> placements{MpiPlacement::NearNic};
        if (me.far_numa >= 0 && peer.far_numa >= 0) placements.push_back(MpiPlacement::Far);
        for (const std::string& placement : placements) {
            const bool far = placement == MpiPlacement::Far;
            const std::string src = at(me, far ? me.far_numa_id : me.near_numa_id);
            const std::string dst = at(peer, far ? peer.far_numa_id : peer.near_numa_id);
            for (const char* op : {MpiOp::Sendrecv, MpiOp::Put})
                for (const std::string& direction : directions)
                    out.push_back(make_record(method_name::kMpiHost, src, dst,
                                              {{MpiOp::key, op},
                                               {MpiDirection::key, direction},
                                               {MpiPlacement::key, placement}}));
        }
    }
    if (selection.gpu && me.gpu_ordinal >= 0 && peer.gpu_ordinal >= 0)
        for (const std::string& direction : directions)
            out.push_back(make_record(method_name::kMpiGpu, at(me, me.gpu_id), at(peer, peer.gpu_id),
                                      {{MpiOp::key, MpiOp::Sendrecv},
                                       {MpiDirection::key, direction},
                                       {MpiPath::key, selection.cuda_aware ? MpiPath::CudaAware : MpiPath::Staged}}));
    return out;
}

std::vector<InterNodeRecord> records_of_pair(const LocalEnds& a, const LocalEnds& b, const InterNodeSelection& selection) {
    std::vector<InterNodeRecord> out = records_initiated_by(a, b, true, selection);
    for (auto& r : records_initiated_by(b, a, false, selection)) out.push_back(std::move(r));
    return out;
}

}  // namespace hwcomm
