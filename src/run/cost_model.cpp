#include "run/cost_model.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "catalog/method_catalog.hpp"
#include "measure/statistics.hpp"

namespace hwcomm {

namespace {

// A method with neither constants nor a sibling's: per band, the median of the fitted methods.
MethodCost median_method(const std::map<std::string, MethodCost>& methods) {
    MethodCost m;
    std::vector<double> setups, confirm_setups;
    std::array<std::vector<double>, kCostBands> converged, budget, noise, per_size;
    for (const auto& [name, c] : methods) {
        if (name.find(' ') != std::string::npos) continue;  // a cost key's: its method's counts
        setups.push_back(c.setup_s);
        confirm_setups.push_back(c.confirm_setup_s);
        for (std::size_t b = 0; b < kCostBands; ++b) {
            if (c.bands[b].points == 0) continue;
            converged[b].push_back(c.bands[b].converged_s);
            budget[b].push_back(c.bands[b].budget_s);
            noise[b].push_back(c.bands[b].noise_s);
            per_size[b].push_back(c.bands[b].points_per_size);
        }
        m.min_samples = c.min_samples;
        m.time_budget_s = c.time_budget_s;
        m.noise_limit_after = c.noise_limit_after;
    }
    m.setup_s = median_or_zero(setups);
    m.confirm_setup_s = median_or_zero(confirm_setups);
    for (std::size_t b = 0; b < kCostBands; ++b) {
        m.bands[b].points = converged[b].size();
        m.bands[b].converged_s = median_or_zero(converged[b]);
        m.bands[b].budget_s = median_or_zero(budget[b]);
        m.bands[b].noise_s = median_or_zero(noise[b]);
        m.bands[b].points_per_size = per_size[b].empty() ? 1 : median_or_zero(per_size[b]);
    }
    return m;
}

}  // namespace

std::size_t cost_band(std::uint64_t bytes) {
    return static_cast<std::size_t>(std::upper_bound(kCostBandEdges.begin(), kCostBandEdges.end(), bytes) -
                                    kCostBandEdges.begin());
}

const CostBand& MethodCost::band_of(std::uint64_t bytes) const {
    const std::size_t own = cost_band(bytes);
    // The nearest fitted band, the larger one on a tie (a size past a method's
    // fitted sizes costs at least what its largest fitted band does).
    for (std::size_t d = 0; d < kCostBands; ++d) {
        if (own + d < kCostBands && bands[own + d].points) return bands[own + d];
        if (d <= own && bands[own - d].points) return bands[own - d];
    }
    return bands[own];
}

std::string cost_key(const std::string& method, const std::map<std::string, std::string>& params) {
    const MethodRow* row = builtin_catalog().find(method);
    if (!row) return method;
    std::string key = method;
    const char* sep = " ";
    for (const ParamDecl& decl : row->params) {  // in the row's order
        if (decl.values.empty()) continue;
        const auto it = params.find(decl.key);
        // Absent is a kind of its own (memcpy-d2d within one GPU has no peer=).
        key += sep + decl.key + "=" + (it == params.end() ? std::string("none") : it->second);
        sep = ",";
    }
    return key;
}

const MethodCost& CostModel::of(const std::string& key) const {
    if (const auto it = methods.find(key); it != methods.end()) return it->second;
    const auto it = methods.find(key.substr(0, key.find(' ')));
    return it == methods.end() ? fallback : it->second;
}

double CostModel::point_seconds(const std::string& key, std::uint64_t bytes, const StoppingOptions& stopping) const {
    const MethodCost& c = of(key);
    const CostBand& band = c.band_of(bytes);
    const double samples = static_cast<double>(std::max<std::size_t>(stopping.min_samples, 1)) /
                           static_cast<double>(std::max<std::size_t>(c.min_samples, 1));
    const double budget = c.time_budget_s > 0 ? stopping.time_budget_s / c.time_budget_s : 1;
    // Points stopped for noise stop after noise_limit_after samples; with no
    // limit on either side they are priced as measured.
    const double noise = c.noise_limit_after > 0 && stopping.noise_limit_after > 0
                             ? static_cast<double>(stopping.noise_limit_after) / static_cast<double>(c.noise_limit_after)
                             : 1;
    double converged = band.converged_s * samples;
    // From 256 MiB a converged point's min_samples are its transfers' time: it
    // costs in proportion to its bytes against the band's mean fitted size
    // (which keeps the band's sum), a larger one at most the stretched budget
    // the stopping rule allows for min_samples. Priced flat, 1 GiB pinned
    // copies after a fit that stopped at 256 MiB left the exhaustive run on
    // one H100 28% short. Points that stopped on the budget cost the budget.
    if (bytes >= kCostBandEdges.back() && band.mean_bytes > 0 && converged > 0) {
        const double scaled = converged * static_cast<double>(bytes) / band.mean_bytes;
        const double cap = stopping.time_budget_s * std::max(1.0, stopping.min_samples_budget_factor);
        converged = scaled <= converged ? scaled : std::min(scaled, std::max(converged, cap));
    }
    return converged + band.budget_s * budget + band.noise_s * noise;
}

double CostModel::record_seconds(const std::string& key, const ExpectedSizes& sizes, std::size_t combos,
                                 const StoppingOptions& stopping, bool confirmation, std::size_t endpoints) const {
    const MethodCost& c = of(key);
    double s = confirmation ? c.confirm_setup_s : c.setup_s;
    // A fixed sweep prepares for its largest size at once (a ladder first for
    // its expected stop): its setup grows with that size past the fitted one.
    if (!confirmation && !sizes.ladder && c.setup_bytes > 0 && !sizes.sizes.empty()) {
        const double largest = static_cast<double>(*std::max_element(sizes.sizes.begin(), sizes.sizes.end()));
        s *= std::max(1.0, largest / c.setup_bytes);
    }
    for (std::uint64_t b : sizes.sizes)
        s += static_cast<double>(std::max<std::size_t>(combos, 1)) * point_seconds(key, b, stopping) *
             (sizes.ladder ? c.band_of(b).points_per_size : 1.0);
    if (endpoints > 1 && c.endpoints > 1) s *= (static_cast<double>(endpoints) - 1) / (c.endpoints - 1);
    return s;
}

std::size_t lane_endpoints(const Record& record) {
    // A group record's ends are written with '*' or '+' (numa0 -> gpu*, gpu0+gpu1 -> gpu2+gpu3);
    // on two GPUs all-to-one has one lane.
    const auto group = [](const std::string& id) { return id.find_first_of("*+") != std::string::npos; };
    if (record.lanes.empty() || !(group(record.src) || group(record.dst))) return 0;
    std::set<std::string> ends;
    for (const LaneSpec& l : record.lanes) ends.insert({l.src, l.dst});
    return ends.size();
}

nlohmann::json cost_model_to_json(const CostModel& model) {
    nlohmann::json methods = nlohmann::json::object();
    for (const auto& [name, c] : model.methods) {
        nlohmann::json bands = nlohmann::json::array();
        for (std::size_t b = 0; b < kCostBands; ++b) {
            nlohmann::json band{{"converged_s", c.bands[b].converged_s}, {"budget_s", c.bands[b].budget_s},
                                {"noise_s", c.bands[b].noise_s},
                                {"points_per_size", c.bands[b].points_per_size}, {"points", c.bands[b].points},
                                {"mean_bytes", c.bands[b].mean_bytes}};
            band["below_bytes"] = b < kCostBandEdges.size() ? nlohmann::json(kCostBandEdges[b]) : nlohmann::json(nullptr);
            bands.push_back(std::move(band));
        }
        methods[name] = {{"setup_s", c.setup_s}, {"confirm_setup_s", c.confirm_setup_s}, {"bands", std::move(bands)},
                         {"ladder_stop_bytes", c.ladder_stop_bytes}, {"setup_bytes", c.setup_bytes}, {"records", c.records},
                         {"min_samples", c.min_samples}, {"time_budget_s", c.time_budget_s},
                         {"noise_limit_after", c.noise_limit_after}, {"endpoints", c.endpoints}};
        if (!c.borrowed_from.empty()) methods[name]["borrowed_from"] = c.borrowed_from;
    }
    return {{"source", model.source}, {"fitted_on", model.fitted_on}, {"methods", std::move(methods)}};
}

CostModel builtin_cost_model() {
    const BuiltinCostTable& table = builtin_cost_table();
    CostModel m;
    m.source = "built-in: " + table.description;
    m.fitted_on = table.results_file;
    m.methods = table.methods;
    // A bandwidth curve without constants takes those of the first fitted
    // method of its family and view (cpu-copy costs per size about what
    // cpu-read does, not what a CUDA copy does). A method with axes or a view
    // of its own (latency chases, mixes) has no such sibling: the fallback.
    for (const MethodRow& row : builtin_catalog().rows()) {
        if (m.methods.count(row.name) || !row.axes.empty()) continue;
        for (const MethodRow& other : builtin_catalog().rows())
            if (other.family == row.family && other.view == row.view && other.axes.empty() &&
                table.methods.count(other.name)) {
                MethodCost borrowed = table.methods.at(other.name);
                borrowed.records = 0;
                borrowed.borrowed_from = other.name;
                m.methods[row.name] = borrowed;
                break;
            }
    }
    m.fallback = median_method(table.methods);
    return m;
}

}  // namespace hwcomm
