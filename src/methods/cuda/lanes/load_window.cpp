#include "methods/cuda/lanes/load_window.hpp"

#include <algorithm>
#include <cmath>

namespace hwcomm::cuda {

LoadInWindow load_in_window(const std::vector<LoadMark>& marks, double window_s) {
    LoadInWindow out;
    for (const LoadMark& m : marks) {
        if (m.seconds <= window_s) {
            out.chunks = m.chunks;
            out.seconds = m.seconds;
        } else {
            out.covered = true;  // a chunk still ran after the window closed
            break;
        }
    }
    return out;
}

std::size_t load_chunks_for(double window_s, double chunk_s, double cover_factor) {
    if (!(chunk_s > 0) || !(window_s > 0) || !std::isfinite(window_s / chunk_s)) return kMaxLoadChunks;
    const double want = std::ceil(cover_factor * window_s / chunk_s) + 1;
    return static_cast<std::size_t>(std::clamp(want, 2.0, static_cast<double>(kMaxLoadChunks)));
}

}  // namespace hwcomm::cuda
