#include "run/progress.hpp"

#include <algorithm>
#include <cstdio>

#include "measure/sweep.hpp"
#include "platform/clock.hpp"

namespace hwcomm {

namespace {

std::string format_duration(double s) {
    const long total = static_cast<long>(s + 0.5);
    char buf[32];
    if (total >= 60) std::snprintf(buf, sizeof buf, "%ldm%02lds", total / 60, total % 60);
    else std::snprintf(buf, sizeof buf, "%lds", total);
    return buf;
}

}  // namespace

double eta_seconds(double elapsed_s, double planned_s, double planned_done_s, std::size_t total_units,
                   std::size_t done_units) {
    if (planned_s > 0) {
        if (planned_done_s <= 0) return planned_s;  // nothing to scale by yet: the plan's word
        return std::max(0.0, planned_s - planned_done_s) * elapsed_s / planned_done_s;
    }
    if (done_units == 0) return -1;
    return elapsed_s / static_cast<double>(done_units) * static_cast<double>(total_units - std::min(total_units, done_units));
}

Progress::Progress(bool enabled, std::size_t total_units, double planned_s)
    : enabled_(enabled), total_(total_units), t0_(steady_seconds()), planned_s_(planned_s) {}

Progress::~Progress() {
    if (enabled_) std::fprintf(stderr, "\r\033[K");
}

void Progress::start(const std::string& method, const std::string& src, const std::string& dst, std::uint64_t bytes) {
    if (!enabled_) return;
    const double elapsed = steady_seconds() - t0_;
    const double left = eta_seconds(elapsed, planned_s_, planned_done_s_, total_, done_);
    const std::string eta = left < 0 ? "?" : format_duration(left);
    const int pct = total_ ? static_cast<int>(100 * done_ / total_) : 100;
    std::fprintf(stderr, "\r\033[K[%zu/%zu %d%%] %s %s->%s %s  ETA %s", done_, total_, pct, method.c_str(),
                 src.c_str(), dst.c_str(), format_size(bytes).c_str(), eta.c_str());
    std::fflush(stderr);
}

void Progress::finish_unit() {
    if (done_ < total_) ++done_;
}

void Progress::skip_units(std::size_t n) { done_ = std::min(total_, done_ + n); }

void Progress::step_done(double planned_s) { planned_done_s_ += std::max(0.0, planned_s); }

}  // namespace hwcomm
