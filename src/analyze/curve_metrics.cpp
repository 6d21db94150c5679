#include "analyze/curve_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "analyze/record_facts.hpp"
#include "core/graph_json.hpp"
#include "measure/statistics.hpp"

namespace hwcomm::analyze {

namespace {

std::string number(double v, const char* fmt = "%.3g") { return format_number(v, fmt); }

std::optional<LargeTransfer> large_transfer(const std::vector<CurvePoint>& pts, const CurveOptions& o) {
    if (pts.empty()) return std::nullopt;
    LargeTransfer lt;
    std::uint64_t from = o.large_min_bytes;
    if (pts.back().bytes < from) {  // the last octave measured: the largest size and its half
        lt.last_octave = true;
        from = pts.back().bytes / 2;
    }
    const CurvePoint& largest = pts.back();
    const double last = largest.gbps;
    const auto ci_tolerance = [&](const CurvePoint& p) {
        if (!p.has_ci || !largest.has_ci || !(p.ci_half_width >= 0) || !(largest.ci_half_width >= 0))
            return o.plateau_tolerance;  // no CI (imported aggregates), or not a number
        return std::clamp(2 * (p.ci_half_width + largest.ci_half_width), o.tight_plateau_tolerance,
                          o.plateau_tolerance);
    };
    const auto flat_tolerance = [&](const CurvePoint&) { return o.plateau_tolerance; };
    struct Window {
        std::vector<double> gbps;
        std::uint64_t from_bytes = 0;
    };
    const auto walk = [&](const auto& tolerance) {
        Window w;
        for (auto it = pts.rbegin(); it != pts.rend(); ++it) {
            if (it->bytes < from || std::abs(it->gbps / last - 1.0) > tolerance(*it)) break;
            w.gbps.push_back(it->gbps);
            w.from_bytes = it->bytes;
        }
        return w;
    };
    Window w = walk(ci_tolerance);
    if (w.gbps.size() < 2)
        if (Window flat = walk(flat_tolerance); flat.gbps.size() > w.gbps.size()) w = std::move(flat);
    const std::vector<double>& window = w.gbps;
    lt.from_bytes = w.from_bytes;
    lt.to_bytes = largest.bytes;
    lt.n_points = window.size();
    lt.gbps = median_value(window);
    return lt;
}

// The size where the curve first reaches `half`, interpolated in log2(size).
std::optional<double> half_size(const std::vector<CurvePoint>& pts, double half) {
    for (std::size_t i = 0; i < pts.size(); ++i) {
        if (pts[i].gbps < half) continue;
        if (i == 0) return static_cast<double>(pts[0].bytes);
        const double x0 = std::log2(static_cast<double>(pts[i - 1].bytes));
        const double x1 = std::log2(static_cast<double>(pts[i].bytes));
        const double f = (half - pts[i - 1].gbps) / (pts[i].gbps - pts[i - 1].gbps);
        return std::exp2(x0 + f * (x1 - x0));
    }
    return std::nullopt;
}

// Minimises sum(((a + c n) - t) / t)^2: linear in a and c = 1/b.
std::optional<HockneyFit> hockney(const std::vector<CurvePoint>& pts) {
    double s11 = 0, s12 = 0, s22 = 0, r1 = 0, r2 = 0;
    std::size_t n = 0;
    for (const CurvePoint& p : pts) {
        if (p.seconds <= 0) continue;
        const double u = 1.0 / p.seconds, v = static_cast<double>(p.bytes) / p.seconds;
        s11 += u * u, s12 += u * v, s22 += v * v, r1 += u, r2 += v;
        ++n;
    }
    const double det = s11 * s22 - s12 * s12;
    if (n < 3 || std::abs(det) <= 1e-300) return std::nullopt;
    const double a = (r1 * s22 - r2 * s12) / det;
    const double c = (s11 * r2 - s12 * r1) / det;
    if (c <= 0) return std::nullopt;
    HockneyFit fit{.latency_s = a, .bandwidth_gbps = 1.0 / c / 1e9, .n_points = n};
    double sq = 0;
    for (const CurvePoint& p : pts) {
        if (p.seconds <= 0) continue;
        const double e = (a + c * static_cast<double>(p.bytes) - p.seconds) / p.seconds;
        sq += e * e;
    }
    fit.rel_rms_error = std::sqrt(sq / static_cast<double>(n));
    return fit;
}

void add_suspects(CurveMetrics& m, const std::vector<CurvePoint>& pts, const std::optional<LinkLimit>& limit,
                  const CurveOptions& o) {
    const CurvePoint* four = nullptr;
    for (const CurvePoint& p : pts)
        if (p.bytes == 4) four = &p;
    for (std::size_t i = 0; i < pts.size(); ++i) {
        const CurvePoint& p = pts[i];
        if (i > 0 && pts[i - 1].gbps > 0 && p.gbps > 0) {
            const double r = p.gbps / pts[i - 1].gbps;
            // Sizes far apart (a confirmation measured at a few sizes): while
            // latency-bound, bandwidth may rise with the size itself.
            const double apart = static_cast<double>(p.bytes) / static_cast<double>(std::max<std::uint64_t>(pts[i - 1].bytes, 1));
            if (r > o.jump_factor * std::max(1.0, apart / 2) || r < 1.0 / o.jump_factor)
                // A drop reads as the factor it falls by ("drops 106x"), not "0.0x".
                m.suspects.push_back({p.bytes, "jump",
                                      std::string("bandwidth ") + (r > 1 ? "rises " : "drops ") +
                                          number(r > 1 ? r : 1 / r, "%.1fx") + " from " +
                                          number(pts[i - 1].gbps) + " GB/s at the previous size to " +
                                          number(p.gbps) + " GB/s"});
        }
        if (p.bytes == 1 && four && p.seconds > o.one_byte_factor * four->seconds)
            m.suspects.push_back({1, "one-byte",
                                  "1 B takes " + number(p.seconds * 1e6) + " us, " +
                                      number(p.seconds / four->seconds, "%.1fx") + " the 4 B time"});
        if (limit && limit->gbps > 0 && p.gbps > limit->gbps * (1 + o.over_limit_tolerance))
            m.suspects.push_back({p.bytes, "over-limit",
                                  number(p.gbps) + " GB/s exceeds the path's " + limit->what + " limit of " +
                                      number(limit->gbps) + " GB/s"});
        if (!p.converged && p.ci_half_width * 2 > o.decision_difference)
            m.suspects.push_back({p.bytes, "not-converged",
                                  "the 95% CI of the median is +-" + number(p.ci_half_width * 100, "%.1f") +
                                      "%, too wide to decide a " + number(o.decision_difference * 100, "%.0f") +
                                      "% difference"});
    }
}

}  // namespace

std::vector<CurvePoint> curve_points(const Record& record) {
    std::vector<CurvePoint> out;
    for (const Point& p : record.points) {
        if (p.status != "ok" || !(p.bandwidth_gbps > 0)) continue;
        CurvePoint c;
        c.bytes = p.bytes;
        c.gbps = p.bandwidth_gbps;
        const double moved = p.bytes_per_rep > 0 ? p.bytes_per_rep : static_cast<double>(p.bytes);
        c.seconds = moved / (p.bandwidth_gbps * 1e9);
        c.ci_low_s = p.stats.ci95_low;
        c.ci_high_s = p.stats.ci95_high;
        c.converged = p.stop_reason.empty() || p.stop_reason == "converged";
        // Times: the interval of the rate is the same relative width.
        if (p.stats.median > 0 && p.stats.ci95_high >= p.stats.ci95_low) {
            c.ci_half_width = p.stats.relative_ci_half_width();
            c.has_ci = true;
        }
        else if (!c.converged)
            c.ci_half_width = 1;  // no interval recorded: nothing decided
        c.n = p.stats.n;
        out.push_back(c);
    }
    std::sort(out.begin(), out.end(), [](const CurvePoint& a, const CurvePoint& b) { return a.bytes < b.bytes; });
    return out;
}

CurveMetrics curve_metrics(const std::vector<CurvePoint>& pts, const std::optional<LinkLimit>& limit,
                           const std::optional<CacheInfo>& cache, bool small_meaningful, const CurveOptions& o) {
    CurveMetrics m;
    m.n_points = pts.size();
    m.limit = limit;
    m.large = large_transfer(pts, o);
    if (!m.large) return m;
    const auto best = std::max_element(pts.begin(), pts.end(),
                                       [](const CurvePoint& a, const CurvePoint& b) { return a.gbps < b.gbps; });
    BestPoint bp{.gbps = best->gbps, .bytes = best->bytes};
    if (cache) {
        bp.cache = cache->name;
        bp.cache_bytes = o.cache_bytes ? o.cache_bytes : cache->bytes;
        // The cache explains the point only when the working set fits and the
        // point clearly beats what the same path does once caches no longer hold the data.
        bp.cache_resident = bp.cache_bytes > 0 && best->bytes * static_cast<std::uint64_t>(cache->buffers) <=
                                                      bp.cache_bytes &&
                            best->bytes < m.large->from_bytes && best->gbps > 1.05 * m.large->gbps;
    }
    m.best = bp;
    if (cache) {
        const std::uint64_t cache_bytes = o.cache_bytes ? o.cache_bytes : cache->bytes;
        m.large->cache_resident =
            cache_bytes > 0 && m.large->to_bytes * static_cast<std::uint64_t>(cache->buffers) <= cache_bytes;
    }
    if (limit && limit->gbps > 0) m.fraction_of_limit = m.large->gbps / limit->gbps;
    m.half_bandwidth_bytes = half_size(pts, m.large->gbps / 2);
    m.fit = hockney(pts);
    if (small_meaningful) m.small = SmallTransfer{pts.front().seconds, pts.front().bytes};
    add_suspects(m, pts, limit, o);
    return m;
}

bool points_are_path_bandwidth(const Record& record) {
    if (!record.context.is_object()) return true;
    const auto h = record.context.find("headline");
    if (h == record.context.end() || !h->is_object()) return true;
    const auto m = h->find("metric");
    return m == h->end() || !m->is_string() || m->get<std::string>() == "bandwidth";
}

std::string headline_why(const Record& record) {
    if (!record.context.is_object() || !record.context.contains("headline")) return "";
    const auto& h = record.context["headline"];
    return h.is_object() && h.contains("why") && h["why"].is_string() ? h["why"].get<std::string>() : "";
}

CurveMetrics curve_metrics(const Record& record, const MethodRow* row, const Graph* topology,
                           const CurveOptions& options) {
    std::optional<LinkLimit> limit;
    if (topology && points_are_path_bandwidth(record)) limit = path_limit(record, row, *topology);
    CurveMetrics m = curve_metrics(curve_points(record), limit, relevant_cache(record, row, topology),
                                   small_transfer_meaningful(record), options);
    if (m.best && reads_from_disk(record)) {
        // The bytes come from the file, not from the CPU cache the destination
        // buffer fits in: only the page cache can explain a fast point, and
        // disk-read drops it before every sample and records what stayed
        // (metrics.cached_bytes_at_start, docs/disk.md).
        std::optional<double> cached;
        for (const Point& p : record.points)
            if (p.status == "ok" && p.bytes == m.best->bytes)
                if (auto it = p.metrics.find("cached_bytes_at_start"); it != p.metrics.end()) cached = it->second.value;
        m.best->cache = "page cache";
        m.best->cache_bytes = 0;
        m.best->cache_resident = cached && *cached >= static_cast<double>(m.best->bytes) && m.best->gbps > 1.05 * m.large->gbps;
    }
    for (const Point& p : record.points)
        if (p.status != "ok") m.suspects.push_back({p.bytes, "failed", p.error.empty() ? "point failed" : p.error});
    return m;
}

std::optional<Graph> topology_of(const ResultsFile& file) {
    if (!file.topology.is_object() || !file.topology.contains("vertices")) return std::nullopt;
    try {
        return graph_from_json(file.topology);
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

}  // namespace hwcomm::analyze
