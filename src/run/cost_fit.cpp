#include "run/cost_fit.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include "core/json_parse.hpp"
#include "measure/statistics.hpp"

namespace hwcomm {

namespace {

constexpr double kSampleFloorS = 200e-6;  // the CUDA methods' target sample length

// Seconds a point spent sampling, as its samples say: samples x max(median, floor) per variant.
double sampled_seconds(const Point& p) {
    const auto one = [](std::size_t n, double median) { return static_cast<double>(n) * std::max(median, kSampleFloorS); };
    if (p.variants.empty()) return one(p.samples_s.size(), p.stats.median);
    double s = 0;
    for (const VariantResult& v : p.variants) s += one(v.samples_s.size(), v.stats.median);
    return s;
}

// Each point's seconds: its own elapsed_s when every point has one, else the
// record's time spread by sampled time (then nothing is left for setup).
std::vector<double> point_seconds_of(const Record& r, double elapsed, double& setup) {
    std::vector<double> out;
    if (const std::optional<double> outside = seconds_outside_points(r)) {
        for (const Point& p : r.points) out.push_back(p.elapsed_s);
        setup = *outside;
        return out;
    }
    double sampled = 0;
    for (const Point& p : r.points) sampled += sampled_seconds(p);
    setup = 0;
    if (!(sampled > 0)) return out;
    for (const Point& p : r.points) out.push_back(elapsed * sampled_seconds(p) / sampled);
    return out;
}

bool measured_with_time(const Record& r) {
    return r.status == "ok" && r.context.is_object() && r.context.contains("elapsed_s") &&
           r.context.at("elapsed_s").is_number() && r.provenance.value("kind", "measured") == "measured";
}

std::uint64_t ladder_stop_of(const Record& r, const LadderOptions& ladder) {
    std::vector<std::uint64_t> sizes;
    for (const Point& p : r.points)
        if (p.axes.empty()) sizes.push_back(p.bytes);
    if (sizes.empty()) return 0;
    std::sort(sizes.begin(), sizes.end());
    if (r.context.contains("ladder")) return sizes.back();  // measured with the ladder: where it stopped
    const std::vector<std::uint64_t> replayed = replay_ladder(r, sizes, ladder);
    if (replayed.empty() || replayed.back() >= sizes.back()) return 0;  // no plateau before the largest size
    return replayed.back();
}

template <typename T>
T option_of(const ResultsFile& file, const char* name, T fallback) {
    const auto o = file.meta.find("options");
    if (o == file.meta.end() || !o->is_object()) return fallback;
    const auto v = o->find(name);
    if (v == o->end() || !v->is_number()) return fallback;
    return v->get<T>();
}

// The run's first-pass ladder sizes: its octave sizes at the plan's octave step.
std::set<std::uint64_t> first_pass_sizes(const ResultsFile& file) {
    std::vector<std::uint64_t> octaves;
    int step = 1;
    if (const auto o = file.meta.find("options"); o != file.meta.end() && o->is_object()) {
        if (const auto s = o->find("sizes"); s != o->end() && s->is_array())
            for (const auto& v : *s)
                if (v.is_number_unsigned()) octaves.push_back(v.get<std::uint64_t>());
        if (const auto p = o->find("plan"); p != o->end() && p->is_object())
            step = std::max(1, p->value("ladder_octave_step", 1));
    }
    std::sort(octaves.begin(), octaves.end());
    const std::vector<std::uint64_t> pass = first_pass(octaves, step);
    return {pass.begin(), pass.end()};
}

struct BandSums {
    double converged = 0, budget = 0, noise = 0;
    double bytes = 0;  // summed over the points: their mean size
    std::size_t points = 0, ladder_points = 0, ladder_first_pass = 0;
};

struct MethodSums {
    // promoted_setups: a promoted record's time outside its points includes the
    // confirmation it was first (its points are not kept): used only where no
    // full record is.
    std::vector<double> setups, confirm_setups, promoted_setups, stops;  // stops: 0 where no plateau held
    std::vector<double> endpoints;  // of the records with several lanes
    std::vector<double> setup_bytes;  // of the full sweeps: the size their sessions were first prepared for
    std::array<BandSums, kCostBands> bands{};
};

void add_record(MethodSums& m, const Record& r, const std::vector<double>& seconds, double setup,
                const std::set<std::uint64_t>& first_pass, const LadderOptions& ladder) {
    (r.measured_as == "confirmed"  ? m.confirm_setups
     : r.measured_as == "promoted" ? m.promoted_setups
                                   : m.setups)
        .push_back(setup);
    if (const std::size_t ends = lane_endpoints(r)) m.endpoints.push_back(static_cast<double>(ends));
    if (r.measured_as != "confirmed" && r.measured_as != "promoted") {
        std::uint64_t first = 0;  // the size its session was first prepared for: staged, else its largest point
        for (const Point& p : r.points) first = std::max(first, p.bytes);
        const nlohmann::json prepared = r.context.is_object() ? r.context.value("prepared", nlohmann::json()) : nlohmann::json();
        if (prepared.is_object() && prepared.contains("first_bytes"))
            first = whole_number_of(prepared.at("first_bytes")).value_or(first);  // a file's own value, checked
        m.setup_bytes.push_back(static_cast<double>(first));
    }
    const bool climbed = r.context.contains("ladder");
    // A confirmation's few sizes say nothing of where a sweep stops.
    if (r.measured_as != "confirmed") m.stops.push_back(static_cast<double>(ladder_stop_of(r, ladder)));
    for (std::size_t i = 0; i < r.points.size(); ++i) {
        const Point& p = r.points[i];
        BandSums& b = m.bands[cost_band(p.bytes)];
        ++b.points;
        b.bytes += static_cast<double>(p.bytes);
        (p.stop_reason == "time_budget"     ? b.budget
         : p.stop_reason == "noise_limited" ? b.noise
                                            : b.converged) += seconds[i];
        if (climbed && p.axes.empty()) {
            ++b.ladder_points;
            b.ladder_first_pass += first_pass.count(p.bytes);
        }
    }
}

}  // namespace

std::vector<std::uint64_t> replay_ladder(const Record& record, const std::vector<std::uint64_t>& candidates,
                                         const LadderOptions& options) {
    std::map<std::uint64_t, const Point*> ok;
    for (const Point& p : record.points)
        if (p.axes.empty() && p.status == "ok" && p.bandwidth_gbps > 0) ok[p.bytes] = &p;
    SizeLadder ladder(candidates, {}, options);
    std::vector<std::uint64_t> measured;
    while (const auto next = ladder.next()) {
        const auto it = ok.find(*next);
        if (it == ok.end()) {
            ladder.add(*next, std::nullopt);
            continue;
        }
        measured.push_back(*next);
        ladder.add(*next, it->second->bandwidth_gbps, it->second->stats.relative_ci_half_width(),
                   it->second->elapsed_s);
    }
    std::sort(measured.begin(), measured.end());
    return measured;
}

std::map<std::string, MethodCost> fit_method_costs(const ResultsFile& file, const LadderOptions& ladder) {
    const std::set<std::uint64_t> first_pass = first_pass_sizes(file);
    std::map<std::string, MethodSums> sums;
    for (const Record& r : file.records) {
        if (!measured_with_time(r)) continue;
        // A round's lane holds a share of the round's time, not what the record costs alone.
        if (r.context.is_object() && r.context.contains("round")) continue;
        double setup = 0;
        const std::vector<double> seconds = point_seconds_of(r, r.context.at("elapsed_s").get<double>(), setup);
        if (seconds.empty()) continue;
        const std::string key = cost_key(r.method, r.params);
        for (MethodSums* m : key == r.method ? std::vector<MethodSums*>{&sums[r.method]}
                                             : std::vector<MethodSums*>{&sums[r.method], &sums[key]})
            add_record(*m, r, seconds, setup, first_pass, ladder);
    }
    const auto min_samples = std::max<std::size_t>(1, option_of<std::size_t>(file, "min_samples", 5));
    const double time_budget = option_of<double>(file, "time_budget_s", StoppingOptions{}.time_budget_s);
    const auto noise_limit_after = option_of<std::size_t>(file, "noise_limit_after", 0);
    std::map<std::string, MethodCost> out;
    for (const auto& [method, m] : sums) {  // methods and cost keys
        MethodCost c;
        c.records = m.setups.size() + m.confirm_setups.size() + m.promoted_setups.size();
        const auto mean = [](const std::vector<double>& v) {
            double sum = 0;
            for (double x : v) sum += x;
            return v.empty() ? 0.0 : sum / static_cast<double>(v.size());
        };
        // A method with only confirmations: their setup is its full sweeps' too
        // (a method without confirmations: below).
        c.setup_s = mean(!m.setups.empty() ? m.setups : !m.promoted_setups.empty() ? m.promoted_setups : m.confirm_setups);
        c.confirm_setup_s = mean(m.confirm_setups);
        c.setup_bytes = std::round(mean(m.setup_bytes));
        for (std::size_t i = 0; i < kCostBands; ++i) {
            const BandSums& b = m.bands[i];
            CostBand& band = c.bands[i];
            band.points = b.points;
            if (b.points == 0) continue;
            band.converged_s = b.converged / static_cast<double>(b.points);
            band.budget_s = b.budget / static_cast<double>(b.points);
            band.noise_s = b.noise / static_cast<double>(b.points);
            band.mean_bytes = std::round(b.bytes / static_cast<double>(b.points));
            band.points_per_size = b.ladder_first_pass ? static_cast<double>(b.ladder_points) /
                                                             static_cast<double>(b.ladder_first_pass)
                                                       : 1.0;
        }
        std::vector<double> stopped;
        for (double s : m.stops)
            if (s > 0) stopped.push_back(s);
        // Most records found their plateau: where; else a full sweep goes to the largest size.
        c.ladder_stop_bytes = stopped.size() * 2 > m.stops.size() ? static_cast<std::uint64_t>(median_or_zero(stopped)) : 0;
        c.min_samples = min_samples;
        c.time_budget_s = time_budget;
        c.noise_limit_after = noise_limit_after;
        c.endpoints = mean(m.endpoints);
        out[method] = c;
    }
    // A method whose confirmations were all promoted (or that had none): the
    // median confirmation setup of the other methods, at most its full
    // sweeps' setup; a cost key without: its method's.
    const auto is_method = [](const std::string& key) { return key.find(' ') == std::string::npos; };
    std::vector<double> confirm_setups;
    for (const auto& [key, m] : sums)
        if (is_method(key) && !m.confirm_setups.empty()) confirm_setups.push_back(out.at(key).confirm_setup_s);
    const double typical = median_or_zero(confirm_setups);
    for (auto& [key, c] : out)
        if (is_method(key) && sums.at(key).confirm_setups.empty())
            c.confirm_setup_s = confirm_setups.empty() ? c.setup_s : std::min(c.setup_s, typical);
    // What a cost key's records do not say (no confirmation, no sweep, a band
    // without points or without ladder points) its method's records do.
    for (auto& [key, c] : out) {
        if (is_method(key)) continue;
        const MethodSums& m = sums.at(key);
        const MethodCost& method = out.at(key.substr(0, key.find(' ')));
        if (m.confirm_setups.empty()) c.confirm_setup_s = method.confirm_setup_s;
        if (m.setups.empty() && m.promoted_setups.empty()) {
            c.setup_s = method.setup_s;
            c.setup_bytes = method.setup_bytes;
            c.ladder_stop_bytes = method.ladder_stop_bytes;
        }
        for (std::size_t b = 0; b < kCostBands; ++b) {
            if (c.bands[b].points == 0) c.bands[b] = method.bands[b];
            else if (m.bands[b].ladder_first_pass == 0) c.bands[b].points_per_size = method.bands[b].points_per_size;
        }
    }
    return out;
}

ResultsFile pooled_results(const std::vector<ResultsFile>& files) {
    if (files.empty()) throw std::invalid_argument("no results file to pool");
    ResultsFile pooled = files.front();
    const auto options = [](const ResultsFile& f) {
        const nlohmann::json o = f.meta.value("options", nlohmann::json::object());
        nlohmann::json kept = nlohmann::json::object();
        for (const char* key : {"min_samples", "time_budget_s", "noise_limit_after", "sizes"})
            if (o.contains(key)) kept[key] = o.at(key);
        return kept;
    };
    for (std::size_t i = 1; i < files.size(); ++i) {
        if (options(files[i]) != options(files.front()))
            throw std::invalid_argument("the runs to pool were measured with other stopping options or sizes");
        pooled.records.insert(pooled.records.end(), files[i].records.begin(), files[i].records.end());
    }
    return pooled;
}

CostModel calibrated_cost_model(const ResultsFile& file, const std::string& path, CostModel base) {
    const std::map<std::string, MethodCost> fitted = fit_method_costs(file);
    // A fitted method's cost keys are all the file's: none of the base's stays beside them.
    std::erase_if(base.methods, [&](const auto& entry) { return fitted.count(entry.first.substr(0, entry.first.find(' '))) > 0; });
    for (const auto& [key, cost] : fitted) base.methods[key] = cost;
    base.source = "calibrated from " + path + " (other methods: " + base.source + ")";
    base.fitted_on = path;
    return base;
}

}  // namespace hwcomm
