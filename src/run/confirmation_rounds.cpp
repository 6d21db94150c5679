#include "run/confirmation_rounds.hpp"

#include <algorithm>
#include <map>

#include "core/paths.hpp"

namespace hwcomm {

namespace {

bool append_links(const Graph& graph, const std::string& from, const std::string& to, std::vector<DirectedLink>& out) {
    const std::optional<Path> path = find_path(graph, from, to);
    if (!path) return false;
    for (std::size_t i = 0; i < path->edges.size(); ++i) {
        const Edge& e = graph.edges()[path->edges[i]];
        if (!e.internal) out.emplace_back(path->edges[i], e.a == path->vertices[i]);
    }
    return true;
}

}  // namespace

std::vector<DirectedLink> route_links(const Graph& graph, const Vertex& src, const Vertex& dst,
                                      const ParamSet& params) {
    std::vector<DirectedLink> out;
    const auto peer = params.find("peer");
    const bool staged = peer != params.end() && peer->second == "off" && src.kind == VertexKind::Gpu &&
                        dst.kind == VertexKind::Gpu && src.id != dst.id;
    if (!staged) {
        append_links(graph, src.id, dst.id, out);
        return out;
    }
    const std::vector<std::string> host = numa_nodes_of(graph, src.id);
    if (host.empty() || !append_links(graph, src.id, host.front(), out) ||
        !append_links(graph, host.front(), dst.id, out))
        out.clear();
    return out;
}

std::vector<std::vector<std::size_t>> plan_rounds(const Graph& graph, const std::vector<const PlannedRecord*>& members,
                                                  bool one_way) {
    // Places of the vertices involved, in graph order: the shift of a member.
    std::map<const Vertex*, std::size_t> place;
    for (const Vertex& v : graph.vertices())
        for (const PlannedRecord* m : members)
            if ((m->src == &v || m->dst == &v) && !place.count(&v)) place.emplace(&v, place.size());
    const std::size_t n = std::max<std::size_t>(place.size(), 1);
    std::vector<std::size_t> order(members.size());
    std::vector<std::size_t> shift(members.size());
    for (std::size_t i = 0; i < members.size(); ++i) {
        order[i] = i;
        shift[i] = (place[members[i]->dst] + n - place[members[i]->src]) % n;
    }
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return shift[a] < shift[b]; });

    struct Round {
        std::vector<std::size_t> members;
        std::set<const Vertex*> sources, destinations;
        std::set<DirectedLink> links;
    };
    std::vector<Round> rounds;
    for (const std::size_t i : order) {
        const PlannedRecord& m = *members[i];
        const std::vector<DirectedLink> links = route_links(graph, *m.src, *m.dst, m.params);
        const auto fits = [&](const Round& r) {
            if (r.sources.count(m.src) || r.destinations.count(m.dst)) return false;
            if (one_way && (r.destinations.count(m.src) || r.sources.count(m.dst))) return false;
            return std::none_of(links.begin(), links.end(), [&](const DirectedLink& l) { return r.links.count(l); });
        };
        auto it = std::find_if(rounds.begin(), rounds.end(), fits);
        if (it == rounds.end()) it = rounds.insert(rounds.end(), Round{});
        it->members.push_back(i);
        it->sources.insert(m.src);
        it->destinations.insert(m.dst);
        it->links.insert(links.begin(), links.end());
    }
    std::vector<std::vector<std::size_t>> out;
    for (Round& r : rounds) {
        std::sort(r.members.begin(), r.members.end());
        out.push_back(std::move(r.members));
    }
    return out;
}

std::vector<bool> covering_members(const Graph& graph, const std::vector<const PlannedRecord*>& members,
                                   const std::set<DirectedLink>& measured) {
    std::vector<bool> chosen(members.size(), false);
    std::vector<std::vector<DirectedLink>> links(members.size());
    for (std::size_t i = 0; i < members.size(); ++i) {
        const PlannedRecord& m = *members[i];
        if (m.src && m.dst) links[i] = route_links(graph, *m.src, *m.dst, m.params);
        if (links[i].empty()) chosen[i] = true;  // nothing to cover it with
    }
    std::set<DirectedLink> covered = measured;
    for (;;) {
        std::size_t best = members.size(), best_new = 0;
        for (std::size_t i = 0; i < members.size(); ++i) {
            if (chosen[i]) continue;
            const auto fresh = static_cast<std::size_t>(
                std::count_if(links[i].begin(), links[i].end(), [&](const DirectedLink& l) { return !covered.count(l); }));
            if (fresh > best_new) best = i, best_new = fresh;
        }
        if (best == members.size()) break;
        chosen[best] = true;
        covered.insert(links[best].begin(), links[best].end());
    }
    return chosen;
}

bool pair_promoted(const ResultsFile& results, const std::string& src, const std::string& dst) {
    return std::any_of(results.records.begin(), results.records.end(), [&](const Record& r) {
        return r.measured_as == "promoted" && r.src == src && r.dst == dst;
    });
}

std::string lane_label(const PlannedRecord& member) { return member.src_id + "->" + member.dst_id; }

PlannedRecord make_round(const std::vector<PlannedRecord>& members, std::size_t number) {
    PlannedRecord r;
    const PlannedRecord& first = members.front();
    r.method = first.method;
    r.params = first.params;
    r.measured_as = "confirmed";
    r.class_id = first.class_id;
    r.representative_key = first.representative_key;
    r.round = members;
    for (const PlannedRecord& m : members) {
        r.src_id += (r.src_id.empty() ? "" : "+") + m.src_id;
        r.dst_id += (r.dst_id.empty() ? "" : "+") + m.dst_id;
    }
    // Not a record of the file: its lanes are (split_round).
    r.key = record_key(first.method->name(), r.src_id, r.dst_id, r.params) + "|round " + std::to_string(number);
    return r;
}

namespace {

Point lane_point(const Point& round, const LanePoint* lane, std::size_t lanes) {
    Point p;
    p.bytes = round.bytes;
    p.axes = round.axes;
    p.elapsed_s = round.elapsed_s / static_cast<double>(std::max<std::size_t>(lanes, 1));
    if (!lane) {
        p.status = "error";
        p.error = round.status == "ok" ? "the round measured no lane of this pair" : round.error;
        return p;
    }
    p.status = round.status;
    p.error = round.error;
    p.verified = round.verified;  // the round checks every lane's data
    p.stop_reason = round.stop_reason;
    p.samples_s = lane->samples_s;
    p.stats = lane->stats;
    p.bytes_per_rep = lane->bytes_per_rep;
    p.bandwidth_gbps = lane->bandwidth_gbps;
    p.peak_bandwidth_gbps = lane->stats.min > 0 ? lane->bytes_per_rep / lane->stats.min / 1e9 : 0;
    return p;
}

}  // namespace

std::vector<Record> split_round(const Record& round, const PlannedRecord& planned) {
    nlohmann::json labels = nlohmann::json::array();
    for (const PlannedRecord& m : planned.round) labels.push_back(lane_label(m));
    std::vector<Record> out;
    for (const PlannedRecord& m : planned.round) {
        Record r;
        r.key = m.key;
        r.method = round.method;
        r.src = m.src_id;
        r.dst = m.dst_id;
        r.params = m.params;
        r.status = round.status;
        r.error = round.error;
        r.error_type = round.error_type;
        r.provenance = round.provenance;
        r.measured_as = round.measured_as;
        r.context = round.context;
        r.context.erase("elapsed_s");
        r.context.erase("estimate_s");
        r.context["round"] = {{"lanes", labels}, {"lane", lane_label(m)}};
        const std::string label = lane_label(m);
        for (const Point& p : round.points) {
            if (p.lanes.empty() && planned.round.size() == 1) {  // one lane: the point is its own
                r.points.push_back(p);
                continue;
            }
            const auto lane = std::find_if(p.lanes.begin(), p.lanes.end(),
                                           [&](const LanePoint& l) { return l.label == label; });
            r.points.push_back(lane_point(p, lane == p.lanes.end() ? nullptr : &*lane, planned.round.size()));
        }
        out.push_back(std::move(r));
    }
    return out;
}

}  // namespace hwcomm
