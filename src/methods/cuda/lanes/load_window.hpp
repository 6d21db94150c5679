#pragma once
// The arithmetic of background load lanes (background_load.hpp), without
// CUDA: how many chunks to queue, and what a lane moved inside the measured
// window from its marks. Tested on any machine.
#include <cstddef>
#include <vector>

namespace hwcomm::cuda {

inline constexpr std::size_t kLoadChunkBytes = std::size_t{32} << 20;
// Chunks and events queued per lane and sample: the queue behind the gate
// stays short (copies + events well under the stream's queue depth).
inline constexpr std::size_t kMaxLoadChunks = 128;
inline constexpr std::size_t kMaxLoadMarks = 32;
// A measured sample under load spans at least this long (instead of
// kTargetIntervalS), so several load marks fall inside it.
inline constexpr double kLoadTargetIntervalS = 2e-3;
// Chunks planned for this many times the measured window's estimate.
inline constexpr double kLoadCoverFactor = 1.5;

// Pure arithmetic of one lane's sample, tested without a GPU: `marks` are
// (chunks finished, seconds since the lane's start) in queue order.
struct LoadMark {
    std::size_t chunks = 0;
    double seconds = 0;
};
struct LoadInWindow {
    std::size_t chunks = 0;  // finished inside the window
    double seconds = 0;      // from the lane's start to the last of them
    bool covered = false;    // the lane was still busy when the window closed
};
LoadInWindow load_in_window(const std::vector<LoadMark>& marks, double window_s);
// Chunks to queue so a lane moving one chunk in `chunk_s` outlasts `window_s`.
std::size_t load_chunks_for(double window_s, double chunk_s, double cover_factor = kLoadCoverFactor);

}  // namespace hwcomm::cuda
