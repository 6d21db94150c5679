#include "model/predict.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "catalog/method_params.hpp"
#include "core/error.hpp"
#include "measure/byte_size.hpp"
#include "model/routes.hpp"
#include "measure/statistics.hpp"

namespace hwcomm::model {

namespace {

bool includes(const std::map<std::string, std::string>& have, const std::map<std::string, std::string>& want) {
    for (const auto& [k, v] : want) {
        const auto it = have.find(k);
        if (it == have.end() || it->second != v) return false;
    }
    return true;
}

std::string params_text(const std::map<std::string, std::string>& p) {
    std::string s;
    for (const auto& [k, v] : p) s += (s.empty() ? "" : ",") + k + "=" + v;
    return s;
}

std::string cite(const Model& m, const CurveModel& c) {
    const SourceFile& s = m.sources[c.source];
    return c.key + " (" + s.path + (s.revision.empty() ? "" : ", revision " + s.revision) + ")";
}

bool excluded(const std::string& key, const std::vector<std::string>& exclude) {
    return std::find(exclude.begin(), exclude.end(), key) != exclude.end();
}

void fill_rates(Answer& a, double bytes_moved) {
    a.gbps = bytes_moved / a.seconds / 1e9;
    a.gbps_low = bytes_moved / a.seconds_high / 1e9;
    a.gbps_high = bytes_moved / a.seconds_low / 1e9;
}

Answer from_curve(const Model& m, const CurveModel& c, const Query& q) {
    Answer a;
    a.query = q, a.params = c.params;
    const CurvePrediction p = predict(c.fit, q.bytes);
    a.seconds = p.seconds;
    a.seconds_low = p.seconds / (1 + p.rel_error);
    a.seconds_high = p.seconds * (1 + p.rel_error);
    fill_rates(a, static_cast<double>(q.bytes) * c.fit.bytes_per_rep_factor);
    a.regime = to_string(p.regime);
    a.bottleneck = c.bottleneck, a.limit_what = c.limit_what, a.limit_gbps = c.limit_gbps;
    a.rests_on = {cite(m, c)};
    if (q.bytes < c.fit.knots.front().bytes || q.bytes > c.fit.knots.back().bytes)
        a.notes.push_back("outside the measured sizes " + format_size(c.fit.knots.front().bytes) + ".." +
                          format_size(c.fit.knots.back().bytes));
    return a;
}

// The single parameter set the candidates agree on, or UsageError naming them.
std::map<std::string, std::string> one_param_set(const std::vector<const CurveModel*>& cands, const Query& q) {
    std::set<std::string> sets;
    for (const CurveModel* c : cands) sets.insert(params_text(c->params));
    if (sets.size() > 1) {
        std::string list;
        for (const auto& s : sets) list += (list.empty() ? "" : " | ") + (s.empty() ? std::string("(none)") : s);
        throw UsageError("predict: " + q.text() + " is ambiguous: give the parameters as --method " + q.method +
                         ":k=v,... (" + list + ")");
    }
    return cands.front()->params;
}

Answer extrapolate(const Model& m, const Graph* g, const Query& q, const std::vector<const CurveModel*>& cands) {
    if (!g) throw UsageError("predict: " + q.text() + " was not measured and the model has no topology to extrapolate");
    if (!g->find(q.src) || !g->find(q.dst))
        throw UsageError("predict: " + (g->find(q.src) ? q.dst : q.src) + " is not a vertex of the model's machine");
    const auto params = one_param_set(cands, q);
    const PathBottleneck b = path_bottleneck(*g, q.method, q.src, q.dst, params);
    if (!(b.gbps > 0))
        throw UsageError("predict: " + q.text() + " was not measured and the topology states no rate on its path");
    std::vector<const CurveModel*> donors;
    for (const CurveModel* c : cands)
        if (c->limit_gbps > 0 && c->limit_what == b.what) donors.push_back(c);
    Answer a;
    if (donors.empty()) {
        for (const CurveModel* c : cands)
            if (c->limit_gbps > 0) donors.push_back(c);
        a.notes.push_back("no " + q.method + " measured on a path limited by " + b.what + ": efficiency of other paths");
    }
    if (donors.empty()) throw UsageError("predict: " + q.text() + ": no measured path of this method states a limit");
    a.query = q, a.params = params, a.basis = "extrapolated";
    std::vector<double> eff, low, high;
    const double factor = donors.front()->fit.bytes_per_rep_factor;
    const double moved = static_cast<double>(q.bytes) * factor;
    for (const CurveModel* d : donors) {
        const CurvePrediction p = predict(d->fit, q.bytes);
        const double e = moved / p.seconds / 1e9 / d->limit_gbps;
        eff.push_back(e);
        low.push_back(e / (1 + p.rel_error));
        high.push_back(e * (1 + p.rel_error));
        a.rests_on.push_back(cite(m, *d));
    }
    const double e = median_value(eff);
    a.gbps = e * b.gbps;
    a.gbps_low = *std::min_element(low.begin(), low.end()) * b.gbps;
    a.gbps_high = *std::max_element(high.begin(), high.end()) * b.gbps;
    a.seconds = moved / a.gbps / 1e9;
    a.seconds_low = moved / a.gbps_high / 1e9;
    a.seconds_high = moved / a.gbps_low / 1e9;
    a.regime = to_string(regime_at(donors.front()->fit, q.bytes));
    a.bottleneck = b.edge, a.limit_what = b.what, a.limit_gbps = b.gbps;
    char buf[160];
    std::snprintf(buf, sizeof buf, "%.1f%% of %s (%.1f GB/s), the median over %zu measured path(s) of that kind",
                  e * 100, b.what.c_str(), b.gbps, donors.size());
    a.notes.push_back(buf);
    return a;
}

}  // namespace

std::string Query::text() const {
    std::string s = method + " " + src + "->" + dst;
    if (!params.empty()) s += " " + params_text(params);
    return s + " " + format_size(bytes);
}

Query parse_transfer(const std::string& text) {
    const auto bad = [&text] {
        return UsageError("predict: '" + text + "' is not a transfer (METHOD[:k=v,...] SRC->DST SIZE)");
    };
    std::vector<std::string> words;
    std::string w;
    for (char ch : text + " ")
        if (ch == ' ' || ch == '\t') {
            if (!w.empty()) words.push_back(w), w.clear();
        } else {
            w += ch;
        }
    if (words.size() != 3) throw bad();
    Query q;
    const auto colon = words[0].find(':');
    q.method = words[0].substr(0, colon);
    if (colon != std::string::npos) {
        std::string rest = words[0].substr(colon + 1) + ",";
        for (std::size_t at = 0, comma; (comma = rest.find(',', at)) != std::string::npos; at = comma + 1) {
            const std::string kv = rest.substr(at, comma - at);
            const auto eq = kv.find('=');
            if (eq == std::string::npos || eq == 0) throw bad();
            q.params[kv.substr(0, eq)] = kv.substr(eq + 1);
        }
    }
    const auto arrow = words[1].find("->");
    if (q.method.empty() || arrow == std::string::npos || arrow == 0 || arrow + 2 >= words[1].size()) throw bad();
    q.src = words[1].substr(0, arrow);
    q.dst = words[1].substr(arrow + 2);
    q.bytes = parse_size(words[2]);
    if (q.bytes == 0) throw bad();
    return q;
}

Answer predict_alone(const Model& m, const Graph* g, const Query& q, const std::vector<std::string>& exclude) {
    if (q.bytes == 0) throw UsageError("predict: the size must be at least 1 byte");
    std::vector<const CurveModel*> cands, here;
    for (const CurveModel& c : m.curves) {
        if (c.method != q.method || !c.single() || !includes(c.params, q.params) || excluded(c.key, exclude)) continue;
        cands.push_back(&c);
        if (c.src == q.src && c.dst == q.dst) here.push_back(&c);
    }
    if (!here.empty()) {
        one_param_set(here, q);
        return from_curve(m, *here.front(), q);
    }
    // A concurrency record asked for by its own endpoints ("all-to-host gpu* -> numa0").
    for (const CurveModel& c : m.curves)
        if (c.method == q.method && !c.single() && c.src == q.src && c.dst == q.dst && includes(c.params, q.params) &&
            !excluded(c.key, exclude))
            return from_curve(m, c, q);
    if (cands.empty()) throw UsageError("predict: the model has no " + q.method + " curve" +
                                        (q.params.empty() ? "" : " with " + params_text(q.params)));
    // A "numa" parameter that names the host buffer's node follows from the
    // pair: keep the curves whose node is the query's NUMA end, when some are.
    if (!q.params.count(NumaParam::key)) {
        const std::string node = q.src.rfind("numa", 0) == 0 ? q.src : q.dst.rfind("numa", 0) == 0 ? q.dst : "";
        std::vector<const CurveModel*> same;
        for (const CurveModel* c : cands)
            if (const auto it = c->params.find(NumaParam::key); it != c->params.end() && "numa" + it->second == node)
                same.push_back(c);
        if (!node.empty() && !same.empty()) cands = same;
    }
    return extrapolate(m, g, q, cands);
}

}  // namespace hwcomm::model
