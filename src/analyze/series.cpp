// Records seen as the study's series: endpoints named by socket and CUDA
// index, host allocation, peer state, NUMA binding, locality from the
// topology, and the verdict rule's one number per curve.
#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "analyze/host_read.hpp"
#include "analyze/record_classes.hpp"
#include "analyze/record_facts.hpp"
#include "analyze/representative_recheck.hpp"
#include "analyze/study.hpp"
#include "catalog/method_params.hpp"
#include "catalog/row_json.hpp"
#include "core/paths.hpp"
#include "io/cluster_section.hpp"
#include "measure/statistics.hpp"

namespace hwcomm::analyze {

namespace {

std::optional<double> window_statistic(const std::vector<CurvePoint>& pts, const VerdictRule& rule) {
    std::vector<double> v;
    for (const CurvePoint& p : pts)
        if (rule.in_window(p.bytes)) v.push_back(p.gbps);
    if (v.empty()) return std::nullopt;
    std::sort(v.begin(), v.end());
    if (rule.statistic == "max") return v.back();
    if (rule.statistic == "mean") {
        double s = 0;
        for (double x : v) s += x;
        return s / static_cast<double>(v.size());
    }
    return median_value(std::move(v));
}

// "cpu<socket rank>" of a NUMA node through the topology's package
// membership, the rank among the packages by OS index as the study counts
// them (CPU0, CPU1: an AC922's sockets are chips 0 and 8); without a
// topology, the node's rank among the nodes the data names.
std::string cpu_name(const std::string& numa_id, const Graph* g, const std::set<int>& numa_seen) {
    if (g) {
        for (const Edge* e : g->edges_of(numa_id))
            if (e->kind == EdgeKind::Membership && e->b == numa_id)
                if (const Vertex* p = g->find(e->a); p && p->kind == VertexKind::Package) {
                    int rank = 0;
                    for (const Vertex* other : g->of_kind(VertexKind::Package)) rank += other->os_index < p->os_index;
                    return "cpu" + std::to_string(rank);
                }
    }
    const int id = id_index(numa_id);
    const auto it = numa_seen.find(id);
    if (it == numa_seen.end()) return numa_id;
    return "cpu" + std::to_string(std::distance(numa_seen.begin(), it));
}

std::string gpu_name(const std::string& gpu_id, const Graph* g) {
    if (g)
        if (const Vertex* v = g->find(gpu_id); v && v->gpu && v->gpu->cuda_ordinal >= 0)
            return "gpu" + std::to_string(v->gpu->cuda_ordinal);
    return gpu_id;
}

bool nvlink_connected(const Graph& g, const std::string& a, const std::string& b) {
    if (!g.find(a) || !g.find(b)) return false;
    return classify_path(g, a, b).kind == PathClass::NvLink;
}

bool has_nvlink_data(const Graph& g) {
    for (const Edge& e : g.edges())
        if (e.kind == EdgeKind::NvLink) return true;
    return false;
}

// The study's local GPU pairs: joined by NVLink. An export without any NVLink
// data (hwloc without its NVML plugin, as the study's IBM AC922 export) says
// nothing of links: there the pairs on one socket (the same local NUMA nodes)
// are the local ones, which is what NVLink joins on those machines.
bool gpus_local(const Graph& g, const std::string& a, const std::string& b, bool nvlink_known) {
    if (nvlink_known) return nvlink_connected(g, a, b);
    const auto na = numa_nodes_of(g, a), nb = numa_nodes_of(g, b);
    return !na.empty() && na == nb;
}

// Peer access: the topology's own statement when discovery recorded one
// (attrs peer_access_to_cudaN), else NVLink or PCIe below one host CPU: yes;
// across the SMP interconnect (SYS): no, as NVIDIA does not support P2P over
// it on x86 machines (docs/analysis.md).
std::optional<bool> peer_possible(const Graph& g, const std::string& a, const std::string& b) {
    const Vertex* va = g.find(a);
    const Vertex* vb = g.find(b);
    if (!va || !vb) return std::nullopt;
    if (vb->gpu && vb->gpu->cuda_ordinal >= 0) {
        const auto it = va->attrs.find("peer_access_to_cuda" + std::to_string(vb->gpu->cuda_ordinal));
        if (it != va->attrs.end()) return it->second == "yes";
    }
    return classify_path(g, a, b).kind != PathClass::Sys;
}

std::optional<int> numa_param(const Record& r) {
    const auto it = r.params.find(NumaParam::key);
    if (it == r.params.end()) return std::nullopt;
    try {
        return std::stoi(it->second);
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

}  // namespace

void validate(const VerdictRule& rule) {
    if (rule.statistic != "median" && rule.statistic != "mean" && rule.statistic != "max")
        throw std::invalid_argument("statistic must be median, mean or max");
    if (!(rule.threshold > 0 && rule.threshold < 10)) throw std::invalid_argument("threshold must be in (0, 10)");
    if (rule.max_bytes && rule.max_bytes < rule.min_bytes)
        throw std::invalid_argument("the size window's upper bound is below its lower bound");
}

std::vector<Series> build_series(const std::vector<NamedResults>& files, const VerdictRule& rule,
                                 std::vector<std::string>& notes) {
    std::vector<Series> out;
    for (const NamedResults& nf : files) {
        const auto topology = topology_of(nf.file);
        const Graph* g = topology ? &*topology : nullptr;
        if (is_cluster_file(nf.file)) {
            // Its records name node-qualified endpoints and each node has its own graph.
            notes.push_back(nf.name + ": a cluster file: the study's tables are made from one node's results "
                                      "(analyze --node NAME); the cluster section compares the nodes");
            continue;
        }
        if (!g)
            notes.push_back(nf.name + ": no topology: sockets are named by NUMA rank, locality, peer-access "
                                      "possibility and link limits are unknown (import with --topology)");
        const bool nvlink_known = g && has_nvlink_data(*g);
        bool socket_locality_noted = false;
        const ClassMap classes = record_classes(nf.file, g, nf.name);
        const MethodCatalog catalog = catalog_for(nf.file.meta);
        auto study_of = [&catalog](const Record& r) {
            const MethodRow* row = catalog.find(r.method);
            return row ? row->study : StudySeries::None;
        };
        std::set<int> numa_seen;
        bool has_peer_method = false;
        for (const Record& r : nf.file.records) {
            for (const std::string& id : {r.src, r.dst})
                if (is_numa_id(id)) numa_seen.insert(id_index(id));
            has_peer_method = has_peer_method || study_of(r) == StudySeries::PeerCopy;
        }
        for (const Record& r : nf.file.records) {
            const StudySeries study = study_of(r);
            Series s;
            s.key = r.key;
            s.source = nf.name;
            s.method = r.method;
            s.src_id = r.src;
            s.dst_id = r.dst;
            const std::string alloc = host_alloc_of(r);
            const bool h2d = study == StudySeries::HostToDevice && is_gpu_id(r.dst);
            const bool d2h = study == StudySeries::DeviceToHost && is_gpu_id(r.src);
            const bool gpu_pair =
                is_gpu_id(r.src) && is_gpu_id(r.dst) && r.src != r.dst &&
                (study == StudySeries::PeerCopy || (!has_peer_method && study == StudySeries::DeviceCopy));
            const bool staging = study == StudySeries::HostStaging && r.params.count(SrcMem::key) &&
                                 r.params.at(SrcMem::key) == SrcMem::Pageable;
            if ((h2d || d2h) && (alloc == HostMem::Pageable || alloc == HostMem::Pinned || alloc == HostMem::Wc)) {
                s.link = "cpu-gpu";
                s.host_alloc = alloc;
                s.direction = h2d ? "h2d" : "d2h";
                const std::string numa_id = h2d ? r.src : r.dst;
                const std::string gpu_id = h2d ? r.dst : r.src;
                s.numa = numa_param(r);
                if (!s.numa && is_numa_id(numa_id)) s.numa = id_index(numa_id);
                s.src = h2d ? cpu_name(numa_id, g, numa_seen) : gpu_name(gpu_id, g);
                s.dst = h2d ? gpu_name(gpu_id, g) : cpu_name(numa_id, g, numa_seen);
                if (g && g->find(numa_id) && g->find(gpu_id)) {
                    const auto local = numa_nodes_of(*g, gpu_id);
                    s.locality = std::count(local.begin(), local.end(), numa_id) ? "local" : "remote";
                }
            } else if (gpu_pair) {
                s.link = "gpu-gpu";
                s.peer = peer_of(r);
                s.numa = numa_param(r);
                s.src = gpu_name(r.src, g);
                s.dst = gpu_name(r.dst, g);
                if (g && g->find(r.src) && g->find(r.dst)) {
                    s.locality = gpus_local(*g, r.src, r.dst, nvlink_known) ? "local" : "remote";
                    if (!nvlink_known && !socket_locality_noted) {
                        notes.push_back(nf.name + ": the topology has no NVLink data: GPU pairs on one socket are "
                                                  "taken as local, pairs across sockets as remote");
                        socket_locality_noted = true;
                    }
                    s.peer_possible = peer_possible(*g, r.src, r.dst);
                    s.path_class = classify_path(*g, r.src, r.dst).label();
                    const auto nodes = numa_nodes_of(*g, r.src);
                    if (!nodes.empty()) s.src_gpu_numa = id_index(nodes.front());
                }
            } else if (staging) {
                s.link = "cpu-cpu";
                s.host_alloc = "pageable-to-pinned";
                s.numa = is_numa_id(r.src) ? std::optional<int>(id_index(r.src)) : std::nullopt;
                s.src = cpu_name(r.src, g, numa_seen);
                s.dst = cpu_name(r.dst, g, numa_seen);
            } else {
                continue;
            }
            if (const LinkClass* c = classes.find(member_of(r))) {
                s.link_class = c->id;
                s.link_class_description = c->description;
            }
            const auto pts = curve_points(r);
            s.metrics = curve_metrics(r, catalog.find(r.method), g);
            s.n_sizes = pts.size();
            for (const CurvePoint& p : pts) {
                s.peak_gbps = std::max(s.peak_gbps, p.gbps);
                if (p.bytes == (1ull << 30)) s.at_1gib_gbps = p.gbps;
            }
            s.window_gbps = window_statistic(pts, rule);
            for (const CurvePoint& p : pts)
                if (rule.in_window(p.bytes))
                    s.window_points[p.bytes] = p.gbps;
            if (has_numa_endpoint(r)) s.host_read_gbps = host_read_mean(r);
            s.class_points = s.window_points;
            for (const auto& [bytes, gbps] : class_comparison_gbps(r))
                if (rule.in_window(bytes)) s.class_points[bytes] = gbps;
            for (const auto& [bytes, gbps] : first_pass_view(r))
                if (rule.in_window(bytes)) s.rechecked_sizes.push_back(bytes);
            for (const SameLinkRepeat& x : same_link_repeats(r))
                if (rule.in_window(x.bytes)) s.repeats.push_back(x);
            // Its class measured twice: the link by both measurements there (class_comparison_gbps).
            if (const auto twice = second_pass_repeat(r); twice && rule.in_window(twice->bytes)) {
                s.repeats.push_back(*twice);
                s.second_pass_bytes = twice->bytes;
            }
            out.push_back(std::move(s));
        }
    }
    return out;
}

}  // namespace hwcomm::analyze
