#include "run/cost_model.hpp"

#include <algorithm>
#include <cmath>

#include "catalog/method_catalog.hpp"

namespace hwcomm {

namespace {

constexpr double kGiB = 1073741824.0;
constexpr double kSampleFloorS = 200e-6;  // the CUDA methods' target sample length
constexpr std::uint64_t kSmallBytes = 64 << 10;
constexpr std::uint64_t kLargeBytes = 1 << 20;

double median_of(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Seconds a point spent sampling, as its samples say: samples x max(median, floor) per variant.
double sampled_seconds(const Point& p) {
    const auto one = [](std::size_t n, double median) { return static_cast<double>(n) * std::max(median, kSampleFloorS); };
    if (p.variants.empty()) return one(p.samples_s.size(), p.stats.median);
    double s = 0;
    for (const VariantResult& v : p.variants) s += one(v.samples_s.size(), v.stats.median);
    return s;
}

// Each point's share of a record's time: its own elapsed_s when every point has
// one, else the record's elapsed time minus nothing, spread by sampled time.
struct PointCost {
    std::uint64_t bytes;
    double seconds;
};

bool has_point_times(const Record& r) {
    return !r.points.empty() &&
           std::all_of(r.points.begin(), r.points.end(), [](const Point& p) { return p.elapsed_s > 0; });
}

std::vector<PointCost> point_costs(const Record& r, double elapsed, double& setup) {
    std::vector<PointCost> out;
    if (has_point_times(r)) {
        double sum = 0;
        for (const Point& p : r.points) out.push_back({p.bytes, p.elapsed_s}), sum += p.elapsed_s;
        setup = std::max(0.0, elapsed - sum);
        return out;
    }
    double sampled = 0;
    for (const Point& p : r.points) sampled += sampled_seconds(p);
    setup = 0;
    if (!(sampled > 0)) return out;
    for (const Point& p : r.points) out.push_back({p.bytes, elapsed * sampled_seconds(p) / sampled});
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

}  // namespace

const MethodCost& CostModel::of(const std::string& method) const {
    const auto it = methods.find(method);
    return it == methods.end() ? fallback : it->second;
}

double CostModel::point_seconds(const std::string& method, std::uint64_t bytes, std::size_t min_samples) const {
    const MethodCost& c = of(method);
    const double scale = static_cast<double>(std::max<std::size_t>(min_samples, 1)) /
                         static_cast<double>(std::max<std::size_t>(c.min_samples, 1));
    return scale * (c.point_s + c.gib_s * static_cast<double>(bytes) / kGiB);
}

double CostModel::record_seconds(const std::string& method, const std::vector<std::uint64_t>& sizes,
                                 std::size_t combos, std::size_t min_samples) const {
    double s = of(method).setup_s;
    for (std::uint64_t b : sizes) s += static_cast<double>(std::max<std::size_t>(combos, 1)) * point_seconds(method, b, min_samples);
    return s;
}

nlohmann::json cost_model_to_json(const CostModel& model) {
    nlohmann::json methods = nlohmann::json::object();
    for (const auto& [name, c] : model.methods) {
        methods[name] = {{"setup_s", c.setup_s}, {"point_s", c.point_s}, {"gib_s", c.gib_s},
                         {"ladder_stop_bytes", c.ladder_stop_bytes}, {"records", c.records},
                         {"min_samples", c.min_samples}};
        if (!c.borrowed_from.empty()) methods[name]["borrowed_from"] = c.borrowed_from;
    }
    return {{"source", model.source}, {"methods", std::move(methods)}};
}

std::vector<std::uint64_t> replay_ladder(const Record& record, const std::vector<std::uint64_t>& candidates,
                                         const LadderOptions& options) {
    std::map<std::uint64_t, std::pair<double, double>> bandwidth;  // bandwidth, relative CI half-width
    for (const Point& p : record.points)
        if (p.axes.empty() && p.status == "ok" && p.bandwidth_gbps > 0)
            bandwidth[p.bytes] = {p.bandwidth_gbps,
                                  p.stats.median > 0 ? (p.stats.ci95_high - p.stats.ci95_low) / 2 / p.stats.median : 0};
    SizeLadder ladder(candidates, {}, options);
    std::vector<std::uint64_t> measured;
    while (const auto next = ladder.next()) {
        const auto it = bandwidth.find(*next);
        if (it != bandwidth.end()) measured.push_back(*next);
        ladder.add(*next, it == bandwidth.end() ? std::nullopt : std::optional<double>(it->second.first),
                   it == bandwidth.end() ? 0 : it->second.second);
    }
    std::sort(measured.begin(), measured.end());
    return measured;
}

std::map<std::string, MethodCost> fit_method_costs(const ResultsFile& file, const LadderOptions& ladder) {
    struct Acc {
        std::vector<double> setups, small_points, stops;  // stops: 0 where no plateau held
        double large_excess = 0, large_gib = 0;
        std::size_t records = 0;
    };
    std::map<std::string, Acc> acc;
    for (const Record& r : file.records) {
        if (!measured_with_time(r)) continue;
        double setup = 0;
        const std::vector<PointCost> costs = point_costs(r, r.context.at("elapsed_s").get<double>(), setup);
        if (costs.empty()) continue;
        Acc& a = acc[r.method];
        ++a.records;
        a.setups.push_back(setup);
        for (const PointCost& c : costs)
            if (c.bytes <= kSmallBytes) a.small_points.push_back(c.seconds);
        a.stops.push_back(static_cast<double>(ladder_stop_of(r, ladder)));
    }
    // The per-GiB cost: what large sizes take beyond a small size's cost.
    for (const Record& r : file.records) {
        if (!measured_with_time(r) || !acc.count(r.method)) continue;
        Acc& a = acc[r.method];
        double setup = 0;
        const double point = median_of(a.small_points);
        for (const PointCost& c : point_costs(r, r.context.at("elapsed_s").get<double>(), setup))
            if (c.bytes >= kLargeBytes) {
                a.large_excess += std::max(0.0, c.seconds - point);
                a.large_gib += static_cast<double>(c.bytes) / kGiB;
            }
    }
    std::size_t min_samples = 5;
    if (const auto o = file.meta.find("options"); o != file.meta.end() && o->is_object())
        if (const auto m = o->find("min_samples"); m != o->end() && m->is_number_unsigned())
            min_samples = std::max<std::size_t>(1, m->get<std::size_t>());
    std::map<std::string, MethodCost> out;
    for (auto& [method, a] : acc) {
        MethodCost c;
        c.records = a.records;
        c.setup_s = median_of(a.setups);
        c.point_s = median_of(a.small_points);
        c.gib_s = a.large_gib > 0 ? a.large_excess / a.large_gib : 0;
        std::vector<double> stopped;
        for (double s : a.stops)
            if (s > 0) stopped.push_back(s);
        // Most records found their plateau: where; else a full sweep goes to the largest size.
        c.ladder_stop_bytes = stopped.size() * 2 > a.stops.size() ? static_cast<std::uint64_t>(median_of(stopped)) : 0;
        c.min_samples = min_samples;
        out[method] = c;
    }
    return out;
}

CostModel builtin_cost_model() {
    CostModel m;
    m.source = "built-in: the default run on nvidia-h200-x2 at revision 6a1be3b";
    for (const MethodRow& row : builtin_catalog().rows()) {
        if (row.cost.fitted_records == 0) continue;
        m.methods[row.name] = {row.cost.setup_s,         row.cost.point_s, row.cost.gib_s,
                               row.cost.ladder_stop_bytes, row.cost.fitted_records, 5};
    }
    // A bandwidth curve without constants takes those of the first fitted
    // method of its family and view (cpu-copy costs per size and GiB about what
    // cpu-read does, not what a CUDA copy does: two cpu-copy records took 41 s
    // on the 2-core dev VM against 1 s estimated). A method with axes or a view
    // of its own (latency chases, mixes) has no such sibling: the fallback.
    for (const MethodRow& row : builtin_catalog().rows()) {
        if (m.methods.count(row.name) || !row.axes.empty()) continue;
        for (const MethodRow& other : builtin_catalog().rows())
            if (other.family == row.family && other.view == row.view && other.axes.empty() &&
                other.cost.fitted_records > 0) {
                MethodCost borrowed = m.methods.at(other.name);
                borrowed.records = 0;
                borrowed.borrowed_from = other.name;
                m.methods[row.name] = borrowed;
                break;
            }
    }
    // A method with neither: about the median row of the CUDA copies.
    m.fallback = {0, 0.007, 0.6, std::uint64_t{256} << 20, 0, 5, ""};
    return m;
}

CostModel calibrated_cost_model(const ResultsFile& file, const std::string& path, CostModel base) {
    for (auto& [method, cost] : fit_method_costs(file)) base.methods[method] = cost;
    base.source = "calibrated from " + path + " (other methods: " + base.source + ")";
    return base;
}

}  // namespace hwcomm
