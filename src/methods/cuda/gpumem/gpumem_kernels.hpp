#pragma once
// Host-side launchers of the GPU memory microbenchmark kernels
// (gpumem_kernels.cu). Plain C++ against the runtime header; each checks its
// launch (MeasurementError) and does not synchronize.
#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

namespace hwcomm::cuda::gpumem {

// Segments of one chase sample, each on its own SM (gpumem_model.hpp chase_segments).
inline constexpr unsigned kChaseResultSegments = 16;

// What one pointer chase leaves behind (device-writable memory): the sums
// over its segments, and each segment's own time and SM.
struct ChaseResult {
    unsigned long long cycles = 0;  // SM clock (clock64) over the timed steps
    unsigned long long ns = 0;      // globaltimer over the timed steps
    unsigned long long last = 0;    // word index reached: checked against the host's walk
    unsigned long long segment_ns[kChaseResultSegments] = {};
    unsigned segment_sm[kChaseResultSegments] = {};
};

// One segment of a chase: block `block` of a grid of `grid` one-thread blocks
// walks `warm` untimed then `steps` timed hops, from word `start` (segment 0)
// or from where segment - 1 stopped (out->last).
struct ChaseSegment {
    std::uint64_t start = 0, warm = 0, steps = 0;
    unsigned segment = 0, block = 0, grid = 1;
};

// One warp of the timeline kernel: SM clock and global timer before and after its load.
struct WarpClock {
    unsigned sm, block, warp, pad;
    unsigned long long start, stop, gstart, gstop;
};

// buf[i x stride_words] = next[i] x stride_words for every node (buf may be a
// peer GPU's or a mapped host pointer; next is on the executing GPU).
void launch_chase_scatter(cudaStream_t stream, unsigned long long* buf, const std::uint32_t* next,
                          std::uint32_t nodes, std::uint64_t stride_words, int sm_count);
// Reads every node once from one block of 1024 threads, as the chase's one
// SM (untimed: brings a footprint that fits the L2 into it); *sink is never
// written in practice.
void launch_chase_touch(cudaStream_t stream, const unsigned long long* buf, std::uint32_t nodes,
                        std::uint64_t stride_words, unsigned long long* sink);
// One thread follows buf for the segment's dependent loads (segment 0 sets
// out's sums, later ones add to them).
void launch_chase(cudaStream_t stream, const unsigned long long* buf, const ChaseSegment& seg, ChaseResult* out);

// The same chase through the bulk-copy unit (sm_90+): each hop a 16-byte
// cp.async.bulk of the node into shared memory (nodes 16-byte aligned).
void launch_tma_chase(cudaStream_t stream, const unsigned long long* buf, const ChaseSegment& seg, ChaseResult* out);

// Reads `bytes` with `blocks` x `threads` threads, `vector_bytes` (4, 8, 16)
// per load, `ilp` (1, 2, 4) independent loads in flight per thread; adds the
// number of elements read to *count.
void launch_read(cudaStream_t stream, const void* data, std::size_t bytes, int vector_bytes, int ilp, int blocks,
                 int threads, unsigned long long* count);

// How many blocks of `threads` threads of that read kernel one SM holds at once
// (registers, threads), for the current device.
int read_kernel_blocks_per_sm(int vector_bytes, int ilp, int threads);

// gpumem-stride's grid: kStrideBlocksPerSm x SMs blocks of kStrideThreads.
inline constexpr int kStrideBlocksPerSm = 4;
inline constexpr int kStrideThreads = 512;

// Loads a[(stride x i) % n] for i in [0, n), elements of `element_bytes` (4 or 16); adds n to *count.
void launch_strided(cudaStream_t stream, const void* data, std::uint64_t n, std::uint64_t stride, int element_bytes,
                    int blocks, int threads, unsigned long long* count);

// One element (4 or 16 bytes) per thread, `threads_total` threads in blocks
// of `warps_per_block` warps; lane 0 of every warp writes out[global warp].
void launch_timeline(cudaStream_t stream, const void* data, std::uint64_t threads_total, int element_bytes,
                     int warps_per_block, WarpClock* out);

}  // namespace hwcomm::cuda::gpumem
