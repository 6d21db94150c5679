#include "run/cost_model.hpp"

#include <algorithm>
#include <cmath>

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
    for (const auto& [name, c] : model.methods)
        methods[name] = {{"setup_s", c.setup_s}, {"point_s", c.point_s}, {"gib_s", c.gib_s},
                         {"ladder_stop_bytes", c.ladder_stop_bytes}, {"records", c.records},
                         {"min_samples", c.min_samples}};
    return {{"source", model.source}, {"methods", std::move(methods)}};
}

std::vector<std::uint64_t> replay_ladder(const Record& record, const std::vector<std::uint64_t>& candidates,
                                         const LadderOptions& options) {
    std::map<std::uint64_t, double> bandwidth;
    for (const Point& p : record.points)
        if (p.axes.empty() && p.status == "ok" && p.bandwidth_gbps > 0) bandwidth[p.bytes] = p.bandwidth_gbps;
    SizeLadder ladder(candidates, {}, options);
    std::vector<std::uint64_t> measured;
    while (const auto next = ladder.next()) {
        const auto it = bandwidth.find(*next);
        if (it != bandwidth.end()) measured.push_back(*next);
        ladder.add(*next, it == bandwidth.end() ? std::nullopt : std::optional<double>(it->second));
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
    // fit_method_costs of docs/examples/h200x2/results-default-all-methods.json.gz
    // (default run, nvidia-h200-x2, revision 6a1be3b, 114 records; tests check
    // the table against that file): setup, per size, per GiB, ladder stop, records.
    CostModel m;
    m.source = "built-in: the default run on nvidia-h200-x2 at revision 6a1be3b";
    const std::vector<std::pair<const char*, MethodCost>> table{
        {"cpu-read", {0, 0.2448, 6.562, 0u, 1, 5}},
        {"cpu-write", {0, 0.2644, 5.807, 0u, 1, 5}},
        {"memcpy", {0, 0.03085, 1.599, 0u, 2, 5}},
        {"disk-read", {0, 0.03045, 4.404, 0u, 3, 5}},
        {"memcpy-h2d", {0, 0.009288, 0.9814, 268435456u, 8, 5}},
        {"memcpy-d2h", {0, 0.01551, 1.083, 268435456u, 8, 5}},
        {"memcpy-h2h", {0, 0.1391, 2.555, 0u, 1, 5}},
        {"memcpy-d2d", {0, 0.004837, 0.1339, 0u, 6, 5}},
        {"memcpy-peer", {0, 0.006522, 0.1853, 268435456u, 4, 5}},
        {"duplex-d2d", {0, 0.07368, 0.2994, 0u, 2, 5}},
        {"duplex-h2d", {0, 0.02879, 0.944, 0u, 2, 5}},
        {"sm-copy-d2d", {0, 0.003424, 0.03605, 536870912u, 2, 5}},
        {"sm-copy-d2d-push", {0, 0.003262, 0.03703, 268435456u, 2, 5}},
        {"sm-copy-h2d", {0, 0.006033, 0.6011, 268435456u, 2, 5}},
        {"sm-copy-d2h", {0, 0.007111, 0.6786, 268435456u, 2, 5}},
        {"all-to-host", {0, 0.01426, 0.7513, 268435456u, 2, 5}},
        {"host-to-all", {0, 0.007662, 0.755, 0u, 2, 5}},
        {"all-to-one", {0, 0.0032, 0.03471, 268435456u, 4, 5}},
        {"one-to-all", {0, 0.003098, 0.04913, 0u, 4, 5}},
        {"zero-copy-read", {0, 0.004967, 0.3215, 268435456u, 6, 5}},
        {"zero-copy-write", {0, 0.006812, 0.4635, 268435456u, 6, 5}},
        {"um-prefetch", {0, 0.01309, 0.9557, 0u, 6, 5}},
        {"um-demand", {0, 0.01329, 1.661, 0u, 6, 5}},
        {"under-load", {0, 0, 0.7122, 0u, 8, 5}},
        {"in-flight", {0, 0, 1.723, 0u, 6, 5}},
        {"priority", {0, 0.2066, 23.59, 0u, 6, 5}},
        {"gpumem-timeline", {0, 0, 5.608, 0u, 2, 5}},
        {"gpumem-occupancy", {0, 0, 0.01355, 0u, 2, 5}},
        {"gpumem-stride", {0, 0, 0.01418, 0u, 2, 5}},
        {"gpumem-latency", {0, 0.00589, 1.023, 0u, 6, 5}}
    };
    for (const auto& [name, cost] : table) m.methods[name] = cost;
    // A method without a row: the median row of the CUDA copies.
    m.fallback = {0, 0.007, 0.6, std::uint64_t{256} << 20, 0, 5};
    return m;
}

CostModel calibrated_cost_model(const ResultsFile& file, const std::string& path, CostModel base) {
    for (auto& [method, cost] : fit_method_costs(file)) base.methods[method] = cost;
    base.source = "calibrated from " + path + " (other methods: " + base.source + ")";
    return base;
}

}  // namespace hwcomm
