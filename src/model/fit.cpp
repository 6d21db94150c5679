#include "model/fit.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "analyze/curve_metrics.hpp"
#include "analyze/record_facts.hpp"
#include "catalog/method_catalog.hpp"
#include "catalog/method_params.hpp"
#include "core/error.hpp"
#include "core/graph_json.hpp"
#include "measure/statistics.hpp"
#include "model/predict.hpp"
#include "model/routes.hpp"
#include "measure/link_text.hpp"

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

// The edge's share of a point: bytes of the lanes crossing it over the
// common window (no load lanes), or, under load, those lanes' own rates added
// (each lane's bytes over its time inside the window).
double carried_at(const Point& p, const std::vector<std::string>& labels, bool loaded, std::size_t lanes) {
    const auto crossing = [&labels](const LanePoint& l) {
        return std::find(labels.begin(), labels.end(), l.label) != labels.end();
    };
    if (loaded) {
        double sum = 0;
        for (const LanePoint& l : p.lanes)
            if (crossing(l)) sum += l.bandwidth_gbps;
        return sum;
    }
    double mine = 0, all = 0;
    for (const LanePoint& l : p.lanes) all += l.bytes_per_rep, mine += crossing(l) ? l.bytes_per_rep : 0;
    const double share = all > 0 ? mine / all : static_cast<double>(labels.size()) / static_cast<double>(lanes);
    return p.bandwidth_gbps * share;
}

}  // namespace

std::optional<CurveModel> fit_record(const Record& r, const Graph* g) {
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
    c.measured_as = r.measured_as;
    c.lanes = measured_lanes(r);
    c.load_lanes = load_lanes(r);
    c.fit = fit_curve(std::move(knots), factor);
    if (g && c.lanes == 1) {
        const PathBottleneck b = path_bottleneck(*g, r.method, r.src, r.dst, r.params);
        c.limit_gbps = b.gbps, c.limit_what = b.what, c.bottleneck = b.edge;
    }
    return c;
}

std::optional<SoloEquivalent> solo_equivalent(const LaneSpec& lane) {
    const MethodRow* row = builtin_catalog().find(lane.method);
    if (!row) return std::nullopt;
    const bool gpu_src = analyze::is_gpu_id(lane.src), gpu_dst = analyze::is_gpu_id(lane.dst);
    const LaneDirection direction = gpu_src && gpu_dst ? LaneDirection::DeviceToDevice
                                    : gpu_src          ? LaneDirection::DeviceToHost
                                    : gpu_dst          ? LaneDirection::HostToDevice
                                                       : LaneDirection::Any;
    for (const SoloRule& rule : row->solo) {
        if (rule.direction != LaneDirection::Any && rule.direction != direction) continue;
        const bool matches = std::all_of(rule.when.begin(), rule.when.end(), [&lane](const auto& kv) {
            const auto it = lane.params.find(kv.first);
            return it != lane.params.end() && it->second == kv.second;
        });
        if (!matches) continue;
        SoloEquivalent e{rule.method.empty() ? lane.method : rule.method, rule.params};
        for (const std::string& key : rule.keep) {
            if (const auto it = lane.params.find(key); it != lane.params.end())
                e.params[key] = it->second.substr(0, it->second.find(':'));  // "off: the driver refused ..."
            else if (const auto d = rule.defaults.find(key); d != rule.defaults.end())
                e.params[key] = d->second;
        }
        return e;
    }
    return std::nullopt;
}

std::string transfer_kind(const std::string& method, const std::map<std::string, std::string>& params) {
    std::string kind = method;
    for (const char* key : {HostMem::key, Peer::key})
        if (const auto it = params.find(key); it != params.end()) kind += std::string(" ") + key + "=" + it->second;
    return kind;
}

std::vector<EdgeTestimony> shared_edge_observations(const Record& r, const CurveModel& aggregate, const Model& singles,
                                                    const Graph& g, std::string& why) {
    struct Use {
        std::size_t edge = 0;
        std::vector<std::size_t> lanes;  // indexes into r.lanes
    };
    std::map<std::string, Use> crossed;
    std::vector<std::string> kinds;
    for (std::size_t i = 0; i < r.lanes.size(); ++i) {
        const LaneSpec& l = r.lanes[i];
        const auto solo = solo_equivalent(l);
        if (!solo) {
            why = "lane " + l.label + " (" + l.method + ") stands for no single transfer";
            return {};
        }
        kinds.push_back(transfer_kind(solo->method, solo->params));
        for (const Crossing& c : route_crossings(g, solo->method, l.src, l.dst, solo->params)) {
            Use& u = crossed[c.name()];
            u.edge = c.edge;
            if (u.lanes.empty() || u.lanes.back() != i) u.lanes.push_back(i);
        }
    }
    std::size_t most = 0;
    for (const auto& [name, u] : crossed) most = std::max(most, u.lanes.size());
    if (r.lanes.size() < 2 || most < 2) {
        why = "its lanes share no edge of the graph";
        return {};
    }
    // Each lane's rate alone at each size: the demand it puts on the edge.
    const bool loaded = aggregate.load_lanes > 0;
    std::vector<const Point*> points;
    for (const Point& p : r.points)
        if (p.status == "ok" && p.bytes >= (64ull << 20)) points.push_back(&p);
    if (points.empty())
        for (const Point& p : r.points)
            if (p.status == "ok" && (points.empty() || p.bytes > points.front()->bytes)) points = {&p};
    std::map<std::pair<std::size_t, std::uint64_t>, double> alone;
    for (std::size_t i = 0; i < r.lanes.size(); ++i) {
        const LaneSpec& l = r.lanes[i];
        const auto solo = solo_equivalent(l);
        for (const Point* p : points) try {
                alone[{i, p->bytes}] = predict_alone(singles, &g, {solo->method, solo->params, l.src, l.dst, p->bytes}).gbps;
            } catch (const UsageError& e) {
                why = "lane " + l.label + " has no rate alone (" + e.what() + ")";
                return {};
            }
    }
    std::vector<EdgeTestimony> out;
    for (const auto& [name, u] : crossed) {
        if (u.lanes.size() != most) continue;
        std::vector<std::string> labels;
        std::set<std::string> edge_kinds;
        for (std::size_t i : u.lanes) labels.push_back(r.lanes[i].label), edge_kinds.insert(kinds[i]);
        std::vector<double> demand, carried;
        for (const Point* p : points) {
            double x = 0;
            for (std::size_t i : u.lanes) x += alone[{i, p->bytes}];
            const double y = carried_at(*p, labels, loaded, r.lanes.size());
            if (y > 0) demand.push_back(x), carried.push_back(y);
        }
        if (carried.empty()) continue;
        const Edge& edge = g.edges()[u.edge];
        EdgeTestimony t;
        t.edge = name, t.what = describe_edge(edge, EdgeText::Link), t.stated_gbps = edge.gbps_per_direction;
        for (const auto& k : edge_kinds) t.kind += (t.kind.empty() ? "" : " + ") + k;
        t.observation = {r.key, most, median_value(demand), median_value(carried),
                         *std::min_element(carried.begin(), carried.end()),
                         *std::max_element(carried.begin(), carried.end())};
        out.push_back(std::move(t));
    }
    if (out.empty()) why = "no lane rate inside the window";
    return out;
}

namespace {

// Groups the testimonies by edge and kind and fits each group's curve.
std::vector<SharedEdgeFit> fit_edges(std::vector<EdgeTestimony> testimonies) {
    std::map<std::pair<std::string, std::string>, SharedEdgeFit> groups;
    for (EdgeTestimony& t : testimonies) {
        SharedEdgeFit& f = groups[{t.edge, t.kind}];
        f.edge = t.edge, f.what = t.what, f.kind = t.kind, f.stated_gbps = t.stated_gbps;
        f.observations.push_back(std::move(t.observation));
    }
    std::vector<SharedEdgeFit> out;
    for (auto& [key, f] : groups) {
        f.curve = fit_capacity_curve(f.observations);
        out.push_back(std::move(f));
    }
    return out;
}

std::vector<EdgeTestimony> testimonies_of(const Model& m) {
    std::vector<EdgeTestimony> out;
    for (const SharedEdgeFit& f : m.shared_edges)
        for (const EdgeObservation& o : f.observations) out.push_back({f.edge, f.what, f.kind, f.stated_gbps, o});
    return out;
}

}  // namespace

std::vector<std::string> SharedEdgeFit::records() const {
    std::vector<std::string> out;
    for (const EdgeObservation& o : observations) out.push_back(o.record);
    return out;
}

Model without_records(const Model& m, const std::vector<std::string>& keys) {
    const auto held = [&keys](const std::string& k) { return std::find(keys.begin(), keys.end(), k) != keys.end(); };
    Model out;
    out.sources = m.sources, out.topology = m.topology, out.notes = m.notes;
    for (const CurveModel& c : m.curves)
        if (!held(c.key)) out.curves.push_back(c);
    // The demands stay as fitted: a held-out single transfer still told what
    // a load lane of another record asked for alone.
    auto testimonies = testimonies_of(m);
    std::erase_if(testimonies, [&](const EdgeTestimony& t) { return held(t.observation.record); });
    out.shared_edges = fit_edges(std::move(testimonies));
    return out;
}

std::map<std::string, std::size_t> record_levels(const Model& m) {
    std::map<std::string, std::size_t> out;
    for (const SharedEdgeFit& e : m.shared_edges)
        for (const EdgeObservation& o : e.observations) out[o.record] = std::max(out[o.record], o.transfers);
    return out;
}

Model fit_model(const std::vector<NamedResults>& inputs) {
    Model m;
    std::map<std::string, std::string> seen;  // key -> file
    std::optional<Graph> graph;
    std::vector<const Record*> together;       // multi-lane records, for the shared edges
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
            auto c = fit_record(r, graph ? &*graph : nullptr);
            if (!c) {
                m.notes.push_back(r.key + ": left out (" + (r.status != "ok" ? "an error record" : "no size sweep") + ")");
                continue;
            }
            c->source = m.sources.size() - 1;
            if (!c->single() && graph) together.push_back(&r);
            m.curves.push_back(std::move(*c));
            ++m.sources.back().records;
        }
    }
    if (m.curves.empty()) throw UsageError("model fit: no record with a usable size sweep in the input");
    if (!graph) m.notes.push_back("no topology in the input: no extrapolation to unmeasured pairs, no shared edges");
    // Shared edges once every single transfer is known: they give the demand.
    std::vector<EdgeTestimony> testimonies;
    for (const Record* r : together) {
        std::string why;
        auto t = shared_edge_observations(*r, *m.find(r->key), m, *graph, why);
        if (t.empty()) m.notes.push_back(r->key + ": no shared edge fitted (" + why + ")");
        for (auto& x : t) testimonies.push_back(std::move(x));
    }
    m.shared_edges = fit_edges(std::move(testimonies));
    return m;
}

}  // namespace hwcomm::model
