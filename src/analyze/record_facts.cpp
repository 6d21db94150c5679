#include "analyze/record_facts.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <optional>

#include "core/json_parse.hpp"
#include "io/endpoint_ids.hpp"
#include "core/paths.hpp"
#include "measure/byte_size.hpp"
#include "measure/link_text.hpp"

namespace hwcomm::analyze {

namespace {

bool has_prefix_number(const std::string& id, const std::string& prefix) {
    if (id.size() <= prefix.size() || id.compare(0, prefix.size(), prefix) != 0) return false;
    for (std::size_t i = prefix.size(); i < id.size(); ++i)
        if (!std::isdigit(static_cast<unsigned char>(id[i]))) return false;
    return true;
}

std::string param(const Record& r, const std::string& key) {
    const auto it = r.params.find(key);
    return it == r.params.end() ? std::string{} : it->second;
}

// The bottleneck edge of the route between two vertices, as a limit.
std::optional<LinkLimit> route_limit(const Graph& g, const std::string& a, const std::string& b) {
    if (!g.find(a) || !g.find(b)) return std::nullopt;
    const auto path = find_path(g, a, b);
    if (!path || path->bottleneck_gbps <= 0) return std::nullopt;
    LinkLimit limit{.gbps = path->bottleneck_gbps, .vertices = path->vertices};
    for (std::size_t i : path->edges)
        if (g.edges()[i].gbps_per_direction == path->bottleneck_gbps) {
            limit.what = describe_edge(g.edges()[i], EdgeText::Link);
            break;
        }
    return limit;
}

std::string local_numa(const Graph& g, const std::string& gpu) {
    const auto nodes = numa_nodes_of(g, gpu);
    return nodes.empty() ? std::string{} : nodes.front();
}

// L2 sizes of GPU models the study and the lent machines use (bytes).
std::uint64_t gpu_l2_bytes(const std::string& model) {
    struct Known {
        const char* token;
        std::uint64_t bytes;
    };
    static const Known known[] = {{"H200", 50 * kMiB}, {"H100", 50 * kMiB}, {"A100", 40 * kMiB},
                                  {"V100", 6 * kMiB},  {"P100", 4 * kMiB}};
    for (const Known& k : known)
        if (model.find(k.token) != std::string::npos) return k.bytes;
    return 0;
}

std::uint64_t attr_bytes(const Vertex* v, const char* key) {
    if (!v) return 0;
    const auto it = v->attrs.find(key);
    if (it == v->attrs.end()) return 0;
    try {
        return std::stoull(it->second);
    } catch (const std::exception&) {
        return 0;
    }
}

}  // namespace

bool is_gpu_id(const std::string& id) { return has_prefix_number(id, "gpu"); }
bool is_numa_id(const std::string& id) { return has_prefix_number(id, "numa"); }

std::string local_endpoint_id(const Record& record, const std::string& id) {
    const auto node = record.context.is_object() ? record.context.find("node") : record.context.end();
    if (node == record.context.end() || !node->is_string()) return id;
    return split_endpoint_id(id, {node->get<std::string>()}).local;
}

bool has_numa_endpoint(const Record& record) {
    return is_numa_id(local_endpoint_id(record, record.src)) || is_numa_id(local_endpoint_id(record, record.dst));
}

int id_index(const std::string& id) {
    std::size_t i = id.size();
    while (i > 0 && std::isdigit(static_cast<unsigned char>(id[i - 1]))) --i;
    return i == id.size() ? -1 : std::stoi(id.substr(i));
}

std::string peer_of(const Record& r) { return param(r, "peer"); }
std::string host_alloc_of(const Record& r) { return param(r, "host_mem"); }
bool is_duplex(const Record& r, const MethodRow* row) { return row && hwcomm::is_duplex(*row, r.params); }

bool small_transfer_meaningful(const Record& r) { return is_gpu_id(r.src) || is_gpu_id(r.dst); }

std::optional<LinkLimit> path_limit(const Record& r, const MethodRow* row, const Graph& g) {
    if (r.src == r.dst) return std::nullopt;  // memory-bound: the graph states no rate
    std::optional<LinkLimit> limit;
    if (is_gpu_id(r.src) && is_gpu_id(r.dst) && peer_of(r) == "off") {
        // Without peer access the copy is staged through host memory: both
        // GPUs' host links are on the way.
        const auto up = route_limit(g, r.src, local_numa(g, r.src));
        const auto down = route_limit(g, local_numa(g, r.dst), r.dst);
        if (!up || !down) return std::nullopt;
        limit = up->gbps <= down->gbps ? up : down;
        limit->what = "staged: " + limit->what;
        limit->vertices = up->vertices;
        limit->vertices.insert(limit->vertices.end(), down->vertices.begin() + 1, down->vertices.end());
    } else {
        limit = route_limit(g, r.src, r.dst);
    }
    if (limit && is_duplex(r, row)) {
        limit->gbps *= 2;  // both directions together
        limit->what = "2 x " + limit->what;
    }
    return limit;
}

namespace {

// context.caches.llc_bytes of the record (0 when absent).
std::uint64_t caches_llc_bytes(const Record& r) {
    const auto caches = r.context.find("caches");
    if (caches == r.context.end() || !caches->is_object()) return 0;
    const auto llc = caches->find("llc_bytes");
    return llc != caches->end() && llc->is_number_unsigned() ? llc->get<std::uint64_t>() : 0;
}

}  // namespace

bool reads_from_disk(const Record& record) { return record.src.rfind("disk:", 0) == 0; }

std::optional<CacheInfo> relevant_cache(const Record& r, const MethodRow* row, const Graph* g) {
    const bool src_gpu = is_gpu_id(r.src), dst_gpu = is_gpu_id(r.dst);
    if (src_gpu && dst_gpu) {
        if (r.src != r.dst) return std::nullopt;  // the data crosses a link; no cache holds the path
        const Vertex* v = g ? g->find(r.src) : nullptr;
        std::uint64_t bytes = attr_bytes(v, "l2_bytes");
        if (!bytes && v && v->gpu) bytes = gpu_l2_bytes(v->gpu->model);
        return CacheInfo{bytes, "GPU L2", 2};  // source and destination on one GPU
    }
    // CPU methods and the host side of host-device copies: the CPU's last-level cache.
    std::uint64_t bytes = 0;
    const std::string host = src_gpu ? r.dst : r.src;
    if (g) {
        for (const Vertex* p : g->of_kind(VertexKind::Package)) bytes = std::max(bytes, attr_bytes(p, "llc_bytes"));
        bytes = std::max(bytes, attr_bytes(g->find(host), "llc_bytes"));
    }
    std::string name = "CPU last-level cache";
    // The size the CPU methods read from sysfs at run time, where the graph has
    // none (hwloc in the nvidia-h200-x4 guest put no L3 under its package;
    // its sysfs said 300 MiB).
    if (!bytes) bytes = caches_llc_bytes(r);
    if (!bytes) {
        bytes = kDefaultLlcBytes;
        name += " (size unknown, assumed 64 MiB)";
    }
    // Host-only records keep the row's working set (a copy: source and destination).
    const int buffers = (!src_gpu && !dst_gpu && row) ? static_cast<int>(row->working_set_buffers) : 1;
    return CacheInfo{bytes, name, buffers};
}

std::string dropped_gate_note(const Record& record) {
    if (!record.context.is_object() || !record.context.contains("gate")) return {};
    const nlohmann::json& gate = record.context.at("gate");
    if (!gate.is_string()) return {};
    const std::string text = gate.get<std::string>();
    if (text.rfind("dropped", 0) != 0) return {};
    return "timed without the blocking kernel (" + text +
           "): each sample holds the cost of queueing its copies, most of the time at the small sizes";
}

// A re-measured point whose first measurement was this tight (relative 95% CI
// half-width) and whose second lies this close to it repeated itself.
constexpr double kTightFirstCi = 0.02;
constexpr double kSameAgain = 0.02;

std::string remeasured_note(const Record& record) {
    if (!record.context.is_object() || !record.context.contains("remeasured")) return {};
    const nlohmann::json& again = record.context.at("remeasured");
    if (!again.is_array()) return {};
    std::string listed;
    for (const nlohmann::json& e : again) {
        const std::optional<std::uint64_t> whole = e.is_object() && e.contains("bytes") ? whole_number_of(e.at("bytes"))
                                                                                        : std::nullopt;
        if (!whole) continue;
        const std::uint64_t bytes = *whole;
        std::string what = format_size(bytes);
        const auto number = [&e](const char* key) -> std::optional<double> {
            if (!e.contains(key) || !e.at(key).is_number()) return std::nullopt;
            const double v = e.at(key).get<double>();
            return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
        };
        const std::optional<double> first = number("first_gbps");
        const std::optional<double> first_ci = number("first_ci95_half_width");
        std::string detail;
        char buf[64];
        if (first) {
            std::snprintf(buf, sizeof buf, "first %.1f GB/s", *first);
            detail = buf;
            if (first_ci) {
                std::snprintf(buf, sizeof buf, " +-%.0f%%", *first_ci * 100);
                detail += buf;
            }
        }
        for (const Point& p : record.points)
            if (p.bytes == bytes && p.status == "ok" && std::isfinite(p.bandwidth_gbps)) {
                // A tight first measurement the second repeats was no transient: the curve's own step.
                const bool same = first && *first > 0 && first_ci && *first_ci <= kTightFirstCi &&
                                  std::abs(p.bandwidth_gbps / *first - 1) <= kSameAgain;
                std::snprintf(buf, sizeof buf, "%skept %.1f%s", detail.empty() ? "" : ", ", p.bandwidth_gbps,
                              same ? ", the same: the curve's own" : "");
                detail += buf;
                break;
            }
        listed += (listed.empty() ? "" : ", ") + what + (detail.empty() ? "" : " (" + detail + ")");
    }
    return listed.empty() ? std::string() : "measured again: " + listed;
}

}  // namespace hwcomm::analyze
