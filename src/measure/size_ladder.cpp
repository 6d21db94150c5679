#include "measure/size_ladder.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "measure/byte_size.hpp"
#include "measure/statistics.hpp"

namespace hwcomm {

namespace {
std::string seconds_text(double s) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", s);
    return text;
}
}  // namespace

std::vector<std::uint64_t> first_pass(const std::vector<std::uint64_t>& octaves, int octave_step) {
    std::vector<std::uint64_t> out;
    const std::size_t step = static_cast<std::size_t>(std::max(1, octave_step));
    for (std::size_t i = 0; i < octaves.size(); ++i)
        if (i % step == 0 || i + 1 == octaves.size()) out.push_back(octaves[i]);
    return out;
}

nlohmann::json ladder_options_to_json(const LadderOptions& o) {
    return {{"octave_step", o.octave_step},
            {"plateau_tolerance", o.plateau_tolerance},
            {"plateau_points", o.plateau_points},
            {"plateau_min_bytes", o.plateau_min_bytes},
            {"bend_slope", {o.bend_min_slope, o.bend_max_slope}},
            {"noisy_plateau_cap", o.noisy_plateau_cap},
            {"scatter_from_bytes", o.scatter_from_bytes},
            {"scatter_points", o.scatter_points},
            {"costly_point_s", o.costly_point_s}};
}

SizeLadder::SizeLadder(std::vector<std::uint64_t> octaves, std::vector<std::uint64_t> intermediates,
                       LadderOptions options)
    : options_(options) {
    std::sort(octaves.begin(), octaves.end());
    octaves.erase(std::unique(octaves.begin(), octaves.end()), octaves.end());
    octaves_ = first_pass(octaves, options_.octave_step);
    for (std::uint64_t s : octaves)
        if (!std::binary_search(octaves_.begin(), octaves_.end(), s)) skipped_.push_back(s);
    std::sort(intermediates.begin(), intermediates.end());
    intermediates.erase(std::unique(intermediates.begin(), intermediates.end()), intermediates.end());
    for (std::uint64_t s : intermediates)
        if (!std::binary_search(octaves.begin(), octaves.end(), s)) intermediates_.push_back(s);
}

std::optional<std::uint64_t> SizeLadder::next() const {
    if (!refinements_.empty()) return refinements_.front();
    if (plateau_ || next_octave_ >= octaves_.size()) return std::nullopt;
    return octaves_[next_octave_];
}

void SizeLadder::add(std::uint64_t bytes, std::optional<double> bandwidth_gbps, double relative_ci,
                     double point_seconds) {
    measured_.push_back(bytes);
    const bool ok = bandwidth_gbps && *bandwidth_gbps > 0;
    const double ci = std::isfinite(relative_ci) ? std::max(0.0, relative_ci) : 1.0;
    if (ok) values_[bytes] = {bytes, *bandwidth_gbps, ci};
    if (!refinements_.empty() && refinements_.front() == bytes) {
        refinements_.erase(refinements_.begin());
        // A skipped octave measured where its neighbours' step bent: each half
        // that still bends gets its intermediate sizes, the other none.
        if (const auto mid = halves_.find(bytes); mid != halves_.end()) {
            const auto [lower, upper] = mid->second;
            halves_.erase(mid);
            if (ok) {
                if (bends(values_.at(lower), values_.at(bytes))) refine_if_bent(lower, bytes);
                if (bends(values_.at(bytes), values_.at(upper))) refine_if_bent(bytes, upper);
            }
        }
        return;
    }
    if (next_octave_ < octaves_.size() && octaves_[next_octave_] == bytes) ++next_octave_;
    if (!ok) {
        run_start_ = octave_points_.size();  // a failed size breaks the run of agreeing sizes
        return;
    }
    const OctavePoint point{bytes, *bandwidth_gbps, ci, std::max(0.0, point_seconds)};
    if (!octave_points_.empty() && bends(octave_points_.back(), point)) refine_if_bent(octave_points_.back().bytes, bytes);
    octave_points_.push_back(point);
    check_plateau();
}

bool SizeLadder::bends(const OctavePoint& lower, const OctavePoint& upper) {
    const double step = std::log(upper.gbps / lower.gbps);
    const double slope = step / std::log(static_cast<double>(upper.bytes) / static_cast<double>(lower.bytes));
    const bool bent = (slope > options_.bend_min_slope && slope < options_.bend_max_slope) ||
                      slope < -options_.bend_min_slope;
    // log(1 + a) + log(1 + b) ~ a + b: a step inside both CIs is noise, not a bend.
    const bool beyond_noise = std::abs(step) > std::log1p(upper.relative_ci) + std::log1p(lower.relative_ci);
    if (!bent || !beyond_noise) return false;
    if (std::abs(step) > scatter_floor(lower.bytes, upper.gbps)) return true;
    within_scatter_from_.push_back(lower.bytes);
    return false;
}

std::vector<std::uint64_t> SizeLadder::drop_above(std::uint64_t max_bytes) {
    const auto above = [max_bytes](std::uint64_t s) { return s > max_bytes; };
    std::vector<std::uint64_t> dropped;
    for (std::size_t i = next_octave_; i < octaves_.size(); ++i)
        if (above(octaves_[i])) dropped.push_back(octaves_[i]);
    // Sizes are ascending and the ones measured are <= max_bytes: only the tail goes.
    octaves_.erase(std::remove_if(octaves_.begin() + static_cast<std::ptrdiff_t>(next_octave_), octaves_.end(), above),
                   octaves_.end());
    std::erase_if(intermediates_, above);
    std::erase_if(skipped_, above);
    std::erase_if(refinements_, above);
    return dropped;
}

void SizeLadder::refine_if_bent(std::uint64_t lower, std::uint64_t upper) {
    // With a first pass of every second octave, the octave skipped between
    // them first (its halves refined only where they bend), not every size
    // between: a noisy step between 256 MiB and 1 GiB otherwise bought all
    // five sizes there (nvidia-h200-x2 under --budget: 2-3.5 s of a disk's
    // or a pageable copy's record).
    for (std::uint64_t m : skipped_)
        if (m > lower && m < upper) {
            refinements_.push_back(m);
            halves_[m] = {lower, upper};
            refined_from_.push_back(lower);
            return;
        }
    bool any = false;
    for (std::uint64_t c : intermediates_)
        if (c > lower && c < upper) refinements_.push_back(c), any = true;
    if (any) refined_from_.push_back(lower);
}

double SizeLadder::scatter_floor(std::uint64_t lower, double gbps) const {
    if (lower < options_.scatter_from_bytes || options_.scatter_points < 3) return 0;
    std::vector<double> logs;
    for (std::size_t i = run_start_; i < octave_points_.size(); ++i)
        if (octave_points_[i].bytes >= options_.scatter_from_bytes) logs.push_back(std::log(octave_points_[i].gbps));
    logs.push_back(std::log(gbps));
    if (logs.size() < options_.scatter_points) return 0;
    std::vector<double> second;  // each = e1 - 2 e2 + e3 of iid noise: sd sigma * sqrt(6)
    for (std::size_t i = 1; i + 1 < logs.size(); ++i) second.push_back(std::abs(logs[i - 1] - 2 * logs[i] + logs[i + 1]));
    // The median |x| of a normal is 0.6745 sd.
    const double sigma = median_value(std::move(second)) / (0.6745 * std::sqrt(6.0));
    return 2 * std::sqrt(2.0) * sigma;  // twice the sd of a difference of two points
}

int SizeLadder::agreement(std::size_t n) const {
    double lo = octave_points_.back().gbps, hi = lo;
    double ci_low = 0, ci_high = std::numeric_limits<double>::infinity();  // the values every CI holds
    for (std::size_t i = octave_points_.size() - n; i < octave_points_.size(); ++i) {
        const OctavePoint& p = octave_points_[i];
        lo = std::min(lo, p.gbps);
        hi = std::max(hi, p.gbps);
        ci_low = std::max(ci_low, p.gbps * (1 - p.relative_ci));
        ci_high = std::min(ci_high, p.gbps * (1 + p.relative_ci));
    }
    if (hi / lo - 1 <= options_.plateau_tolerance) return 1;
    if (ci_low <= ci_high && hi / lo - 1 <= options_.noisy_plateau_cap) return 2;
    return 0;
}

void SizeLadder::check_plateau() {
    const std::size_t n = options_.plateau_points;
    const std::size_t run = octave_points_.size() - run_start_;
    if (n == 0 || octave_points_.back().bytes < options_.plateau_min_bytes) return;
    if (run >= n) {
        if (const int how = agreement(n); how > 0) {
            plateau_ = true;
            noisy_plateau_ = how == 2;
            return;
        }
    }
    const OctavePoint& last = octave_points_.back();
    if (options_.costly_point_s <= 0 || n <= 2 || run < 2 || last.seconds < options_.costly_point_s) return;
    if (octave_points_[octave_points_.size() - 2].bytes < options_.plateau_min_bytes) return;
    if (const int how = agreement(2); how > 0) {
        plateau_ = costly_plateau_ = true;
        noisy_plateau_ = how == 2;
    }
}

nlohmann::json SizeLadder::summary() const {
    nlohmann::json j{{"sizes", measured_.size()}, {"first_pass", octaves_.size()}};
    nlohmann::json refined = nlohmann::json::array();
    for (std::uint64_t lower : refined_from_) refined.push_back(lower);
    j["refined_above"] = std::move(refined);
    if (!within_scatter_from_.empty()) j["bend_within_scatter_above"] = within_scatter_from_;
    if (plateau_) {
        const std::size_t n = costly_plateau_ ? 2 : options_.plateau_points;
        const std::uint64_t first = octave_points_[octave_points_.size() - n].bytes;
        j["stop"] = "plateau: " + format_size(first) + " to " + format_size(octave_points_.back().bytes) +
                    (noisy_plateau_ ? std::string(" within their 95% CIs")
                                    : " within " + std::to_string(static_cast<int>(std::lround(options_.plateau_tolerance * 100))) + "%");
        if (costly_plateau_)
            j["stop"] = j["stop"].get<std::string>() + ", two sizes: " + format_size(octave_points_.back().bytes) +
                        " took " + seconds_text(octave_points_.back().seconds) + " s, the next about twice that";
    } else {
        j["stop"] = "largest size";
    }
    return j;
}

std::vector<std::uint64_t> expected_ladder_sizes(const std::vector<std::uint64_t>& octaves,
                                                 const LadderOptions& options, std::uint64_t stop_bytes) {
    std::vector<std::uint64_t> out;
    for (std::uint64_t s : first_pass(octaves, options.octave_step)) {
        out.push_back(s);
        if (s >= std::max(stop_bytes, options.plateau_min_bytes)) break;
    }
    return out;
}

}  // namespace hwcomm
