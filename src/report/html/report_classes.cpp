// The link classes on the report page (issue 21): per file, each class of its
// records with the curves of its members and how each was measured (full,
// confirmed, promoted); a confirmed curve carries, between its measured sizes,
// its representative's shape scaled through its own points, drawn dashed and
// labelled as that shape (it was not measured there).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>

#include "analyze/curve_metrics.hpp"
#include "analyze/record_classes.hpp"
#include "analyze/run_time.hpp"
#include "report/html/report_model.hpp"

namespace hwcomm::report_html {

namespace {

using nlohmann::json;

// Four significant digits, as the page's other curves.
double significant4(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.4g", value);
    return std::strtod(buffer, nullptr);
}

// The representative's points between the confirmed record's first and last
// size, each scaled by the ratio of the confirmed to the representative curve,
// interpolated in log size between the confirmed sizes.
json shape_between(const Record& confirmed, const Record& representative) {
    std::map<std::uint64_t, double> rep, mine;
    for (const auto& p : analyze::curve_points(representative)) rep[p.bytes] = p.gbps;
    for (const auto& p : analyze::curve_points(confirmed))
        if (rep.count(p.bytes)) mine[p.bytes] = p.gbps;
    if (mine.size() < 2) return nullptr;
    json b = json::array(), bw = json::array();
    for (auto it = rep.lower_bound(mine.begin()->first); it != rep.end() && it->first <= mine.rbegin()->first; ++it) {
        const auto hi = mine.lower_bound(it->first);
        const auto lo = hi->first == it->first ? hi : std::prev(hi);
        const double ratio_lo = lo->second / rep.at(lo->first), ratio_hi = hi->second / rep.at(hi->first);
        const double span = std::log2(static_cast<double>(hi->first)) - std::log2(static_cast<double>(lo->first));
        const double t = span > 0 ? (std::log2(static_cast<double>(it->first)) - std::log2(static_cast<double>(lo->first))) / span : 0;
        b.push_back(it->first);
        bw.push_back(significant4(it->second * (ratio_lo + t * (ratio_hi - ratio_lo))));
    }
    return {{"of", representative.key}, {"b", std::move(b)}, {"bw", std::move(bw)}};
}

// What the run took beside its plan's estimate, per method and in total (the
// last row, method ""); empty for files whose records carry no estimate.
json run_time_json(const ResultsFile& file) {
    json rows = json::array();
    for (const analyze::RunTimeRow& r : analyze::run_time_rows(file))
        rows.push_back({{"method", r.method}, {"records", r.records}, {"full", r.full}, {"confirmed", r.confirmed},
                        {"promoted", r.promoted}, {"measured_twice", r.measured_twice}, {"timed", r.timed}, {"estimate_s", r.estimate_s},
                        {"elapsed_s", r.elapsed_s}});
    return rows;
}

}  // namespace

json classes_json(const std::vector<ReportInput>& inputs, json& curves) {
    json out = json::array();
    std::map<std::pair<std::size_t, std::string>, std::size_t> curve_of;  // (file, record key) -> curve id
    for (std::size_t id = 0; id < curves.size(); ++id)
        curve_of[{curves[id]["file"].get<std::size_t>(), curves[id]["key"].get<std::string>()}] = id;
    for (std::size_t f = 0; f < inputs.size(); ++f) {
        const ResultsFile& file = inputs[f].results;
        const Graph* graph = inputs[f].graph.vertices().empty() ? nullptr : &inputs[f].graph;
        ClassMap classes;
        try {
            classes = analyze::record_classes(file, graph, inputs[f].name);
        } catch (const std::exception& e) {
            out.push_back({{"name", inputs[f].name}, {"error", e.what()}, {"classes", json::array()},
                           {"run_time", run_time_json(file)}});
            continue;
        }
        // Representatives by (method, comparable params, class): the record of the class's first member.
        std::map<std::tuple<std::string, std::map<std::string, std::string>, std::string>, const Record*> reps;
        for (const Record& r : file.records)
            if (const LinkClass* c = classes.find(analyze::member_of(r)); c && c->members.front() == analyze::member_of(r))
                reps[{r.method, analyze::comparable_params(r), c->id}] = &r;
        json list = json::array();
        std::map<std::string, std::size_t> index;
        for (const LinkClass& c : classes.classes) {
            index[c.id] = list.size();
            list.push_back({{"id", c.id}, {"description", c.description}, {"rates_known", c.rates_known},
                            {"representative", c.members.front().src + " -> " + c.members.front().dst},
                            {"members", c.members.size()}, {"curves", json::array()},
                            {"measured_as", {{"full", 0}, {"confirmed", 0}, {"promoted", 0}}}});
        }
        for (const Record& r : file.records) {
            const LinkClass* c = classes.find(analyze::member_of(r));
            const auto id = curve_of.find({f, r.key});
            if (!c || id == curve_of.end()) continue;
            const std::string as = analyze::measured_as(r);
            json& entry = list[index.at(c->id)];
            entry["curves"].push_back(id->second);
            if (entry["measured_as"].contains(as)) entry["measured_as"][as] = entry["measured_as"][as].get<int>() + 1;
            json& curve = curves[id->second];
            curve["cls"] = c->id;
            curve["as"] = as;
            if (as != "confirmed") continue;
            const auto rep = reps.find({r.method, analyze::comparable_params(r), c->id});
            if (rep != reps.end() && rep->second != &r)
                if (json shape = shape_between(r, *rep->second); !shape.is_null()) curve["shape"] = std::move(shape);
        }
        out.push_back({{"name", inputs[f].name}, {"classes", std::move(list)}, {"notes", classes.notes},
                       {"run_time", run_time_json(file)}});
    }
    return out;
}

void mark_measured_as(json& groups, const json& curves) {
    for (auto& g : groups)
        for (auto& entry : g["curves"]) {
            const json& c = curves[entry["id"].get<std::size_t>()];
            if (c.contains("as") && c["as"] != "full")
                entry["label"] = entry["label"].get<std::string>() + " [" + c["as"].get<std::string>() + "]";
        }
}

}  // namespace hwcomm::report_html
