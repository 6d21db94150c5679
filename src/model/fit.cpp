#include "model/fit.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "analyze/curve_metrics.hpp"
#include "catalog/row_json.hpp"
#include "core/error.hpp"
#include "core/graph_json.hpp"
#include "model/routes.hpp"

namespace hwcomm::model {

namespace {

std::string meta_string(const ResultsFile& f, const char* key) {
    const auto it = f.meta.find(key);
    return it != f.meta.end() && it->is_string() ? it->get<std::string>() : std::string{};
}

std::size_t measured_lanes(const Record& r) {
    std::size_t n = 0;
    for (const LaneSpec& l : r.lanes) n += l.role != "load";
    return std::max<std::size_t>(n, 1);
}

std::size_t load_lanes(const Record& r) {
    std::size_t n = 0;
    for (const LaneSpec& l : r.lanes) n += l.role == "load";
    return n;
}

// Under load, what the lanes crossing an edge moved together: the sum of
// their own rates (each lane's bytes over its time inside the window), median
// over the sizes of 64 MiB and more (the largest size when none is).
double loaded_edge_rate(const Record& r, const std::vector<std::string>& labels) {
    std::vector<double> sums;
    const Point* largest = nullptr;
    for (const Point& p : r.points) {
        if (p.status != "ok" || p.lanes.empty()) continue;
        double sum = 0;
        for (const LanePoint& l : p.lanes)
            if (std::find(labels.begin(), labels.end(), l.label) != labels.end()) sum += l.bandwidth_gbps;
        if (p.bytes >= (64ull << 20)) sums.push_back(sum);
        if (!largest || p.bytes > largest->bytes) largest = &p;
    }
    if (sums.empty() && largest) {
        double sum = 0;
        for (const LanePoint& l : largest->lanes)
            if (std::find(labels.begin(), labels.end(), l.label) != labels.end()) sum += l.bandwidth_gbps;
        sums.push_back(sum);
    }
    if (sums.empty()) return 0;
    std::sort(sums.begin(), sums.end());
    return sums[sums.size() / 2];
}

}  // namespace

std::optional<CurveModel> fit_record(const Record& r, const MethodRow* row, const Graph* g) {
    if (r.status != "ok") return std::nullopt;
    for (const Point& p : r.points)
        if (!p.axes.empty()) return std::nullopt;  // not a size sweep (gpumem-style axes)
    const auto points = analyze::curve_points(r);
    if (points.empty()) return std::nullopt;
    std::vector<Knot> knots;
    for (const auto& p : points) knots.push_back({p.bytes, p.seconds, 0});
    // Bytes moved per size unit: 2 for duplex, the lane count for concurrency records.
    double factor = 1;
    for (const Point& p : r.points)
        if (p.status == "ok" && p.bytes > 0 && p.bytes_per_rep > 0) {
            factor = p.bytes_per_rep / static_cast<double>(p.bytes);
            break;
        }
    CurveModel c;
    c.key = r.key, c.method = r.method, c.src = r.src, c.dst = r.dst, c.params = r.params;
    const auto kind = r.provenance.find("kind");
    c.provenance = kind != r.provenance.end() && kind->is_string() ? kind->get<std::string>() : "measured";
    c.lanes = measured_lanes(r);
    c.load_lanes = load_lanes(r);
    c.fit = fit_curve(std::move(knots), factor);
    if (g && c.lanes == 1) {
        const PathBottleneck b = path_bottleneck(*g, row, r.method, r.src, r.dst, r.params);
        c.limit_gbps = b.gbps, c.limit_what = b.what, c.bottleneck = b.edge;
    }
    return c;
}

std::optional<SoloEquivalent> solo_equivalent(const LaneSpec& lane, const MethodCatalog& catalog) {
    const MethodRow* row = catalog.find(lane.method);
    if (!row) return std::nullopt;
    const bool gpu_src = lane.src.rfind("gpu", 0) == 0, gpu_dst = lane.dst.rfind("gpu", 0) == 0;
    for (const SoloRule& rule : row->solo) {
        const bool direction = rule.direction == LaneDirection::Any ||
                               (rule.direction == LaneDirection::DeviceToDevice && gpu_src && gpu_dst) ||
                               (rule.direction == LaneDirection::DeviceToHost && gpu_src && !gpu_dst) ||
                               (rule.direction == LaneDirection::HostToDevice && !gpu_src && gpu_dst);
        bool when = direction;
        for (const auto& [k, v] : rule.when) {
            const auto it = lane.params.find(k);
            when = when && it != lane.params.end() && it->second == v;
        }
        if (!when) continue;
        // Only the parameters that pick a single-transfer curve (a load lane
        // also carries chunk_bytes, spec).
        SoloEquivalent e{rule.method.empty() ? lane.method : rule.method, rule.params};
        for (const std::string& key : rule.keep)
            if (const auto it = lane.params.find(key); it != lane.params.end())
                e.params[key] = it->second.substr(0, it->second.find(':'));  // "off: the driver refused ..."
        for (const auto& [k, v] : rule.defaults) e.params.emplace(k, v);
        return e;
    }
    return std::nullopt;
}

std::vector<SharedEdgeFit> fit_shared_edges(const Record& r, const CurveModel& aggregate, const Graph& g,
                                            const MethodCatalog& catalog) {
    std::map<std::string, std::pair<std::size_t, std::size_t>> crossed;  // name -> (lanes, edge index)
    std::map<std::string, std::vector<std::string>> labels;               // name -> lanes crossing it
    std::size_t lanes = 0;
    for (const LaneSpec& l : r.lanes) {
        ++lanes;
        const auto solo = solo_equivalent(l, catalog);
        if (!solo) return {};
        for (const Crossing& c : route_crossings(g, solo->method, l.src, l.dst, solo->params)) {
            auto& e = crossed[c.name()];
            ++e.first, e.second = c.edge;
            labels[c.name()].push_back(l.label);
        }
    }
    std::size_t most = 0;
    for (const auto& e : crossed) most = std::max(most, e.second.first);
    if (lanes < 2 || most < 2) return {};
    // Every edge the most lanes cross carried the record's aggregate rate.
    std::vector<SharedEdgeFit> out;
    for (const auto& [name, use] : crossed) {
        if (use.first != most) continue;
        const Edge& edge = g.edges()[use.second];
        SharedEdgeFit f;
        f.edge = name;
        f.what = edge.kind == EdgeKind::NvLink && edge.nvlink
                     ? "NVLink " + edge.nvlink->version + " x" + std::to_string(edge.nvlink->links)
                     : std::string(to_string(edge.kind)) + " link";
        f.lane_method = r.method;
        for (const auto& [k, v] : r.params) f.lane_method += " " + k + "=" + v;
        f.stated_gbps = edge.gbps_per_direction;
        // Without load lanes the record's own rate is every lane's bytes over
        // the common window; with them, the lanes' own rates added.
        f.capacity_gbps = aggregate.load_lanes ? loaded_edge_rate(r, labels[name]) : large_gbps(aggregate.fit);
        if (!(f.capacity_gbps > 0)) continue;
        f.efficiency = f.stated_gbps > 0 ? f.capacity_gbps / f.stated_gbps : 0;
        f.records = {r.key};
        f.lanes = most;
        out.push_back(std::move(f));
    }
    return out;
}

Model fit_model(const std::vector<NamedResults>& inputs) {
    Model m;
    std::map<std::string, std::string> seen;  // key -> file
    std::optional<Graph> graph;
    std::vector<const nlohmann::json*> metas;
    for (const NamedResults& in : inputs) metas.push_back(&in.file.meta);
    const MethodCatalog catalog = catalog_for(metas);
    for (const NamedResults& in : inputs) {
        SourceFile s{in.path, meta_string(in.file, "git_revision"), meta_string(in.file, "date_utc"),
                     meta_string(in.file, "host"), in.file.meta.value("fingerprint", nlohmann::json()), 0};
        if (!graph) {
            graph = analyze::topology_of(in.file);
            if (graph) m.topology = in.file.topology;
        }
        m.sources.push_back(s);
        for (const Record& r : in.file.records) {
            if (auto it = seen.find(r.key); it != seen.end())
                throw UsageError("model fit: record " + r.key + " is in both " + it->second + " and " + in.path +
                                 " (one machine per model)");
            seen[r.key] = in.path;
            auto c = fit_record(r, catalog.find(r.method), graph ? &*graph : nullptr);
            if (!c) {
                m.notes.push_back(r.key + ": left out (" + (r.status != "ok" ? "an error record" : "no size sweep") + ")");
                continue;
            }
            c->source = m.sources.size() - 1;
            if (!c->single() && graph) {
                auto shared = fit_shared_edges(r, *c, *graph, catalog);
                if (shared.empty()) m.notes.push_back(r.key + ": its lanes share no edge of the graph");
                for (auto& e : shared) m.shared_edges.push_back(std::move(e));
            }
            m.curves.push_back(std::move(*c));
            ++m.sources.back().records;
        }
    }
    if (m.curves.empty()) throw UsageError("model fit: no record with a usable size sweep in the input");
    if (!graph) m.notes.push_back("no topology in the input: no extrapolation to unmeasured pairs, no shared edges");
    return m;
}

}  // namespace hwcomm::model
