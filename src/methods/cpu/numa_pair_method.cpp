#include "methods/cpu/numa_pair_method.hpp"

#include "catalog/method_params.hpp"
#include "core/error.hpp"

namespace hwcomm {

namespace {

bool has_cpus(const Vertex& v) {
    // A graph without NUMA details (hand-made, old file) is given the benefit of the doubt.
    return !v.numa || v.numa->cores > 0 || !v.numa->pus.empty();
}

}  // namespace

int numa_index_of(const Vertex& v) {
    if (v.kind != VertexKind::NumaNode || v.os_index < 0)
        throw MeasurementError(v.id + " is not a NUMA node with an OS index");
    return v.os_index;
}

Stores stores_of(const ParamSet& params) {
    const auto it = params.find(StoresParam::key);
    if (it == params.end() || it->second == StoresParam::Plain) return Stores::Plain;
    if (it->second == StoresParam::Nt) return Stores::NonTemporal;
    throw MeasurementError("stores=" + it->second + " is not plain or nt");
}

Applicability NumaPairMethod::applicable(const Graph&, const Vertex& src, const Vertex& dst) const {
    if (src.kind != VertexKind::NumaNode) return Applicability::no(src.id + " is not a NUMA node");
    if (dst.kind != VertexKind::NumaNode) return Applicability::no(dst.id + " is not a NUMA node");
    if (src.os_index < 0 || dst.os_index < 0) return Applicability::no("NUMA node without an OS index");
    const Vertex& workers = cpu_end() == CpuEnd::Src ? src : dst;
    if (!has_cpus(workers)) return Applicability::no(workers.id + " has no CPU cores to run the workers");
    return Applicability::yes();
}

}  // namespace hwcomm
