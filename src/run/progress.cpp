#include "run/progress.hpp"

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

Progress::Progress(bool enabled, std::size_t total_units)
    : enabled_(enabled), total_(total_units), t0_(steady_seconds()) {}

Progress::~Progress() {
    if (enabled_) std::fprintf(stderr, "\r\033[K");
}

void Progress::start(const std::string& method, const std::string& src, const std::string& dst, std::uint64_t bytes) {
    if (!enabled_) return;
    const double elapsed = steady_seconds() - t0_;
    std::string eta = "?";
    if (done_ > 0) eta = format_duration(elapsed / static_cast<double>(done_) * static_cast<double>(total_ - done_));
    const int pct = total_ ? static_cast<int>(100 * done_ / total_) : 100;
    std::fprintf(stderr, "\r\033[K[%zu/%zu %d%%] %s %s->%s %s  ETA %s", done_, total_, pct, method.c_str(),
                 src.c_str(), dst.c_str(), format_size(bytes).c_str(), eta.c_str());
    std::fflush(stderr);
}

void Progress::finish_unit() {
    if (done_ < total_) ++done_;
}

void Progress::skip_units(std::size_t n) { done_ = std::min(total_, done_ + n); }

}  // namespace hwcomm
