#include "methods/cuda/gpumem/gpumem_kernels.hpp"

#include <cuda/ptx>

#include "core/error.hpp"
#include "methods/cuda/common/cuda_check.hpp"

namespace hwcomm::cuda::gpumem {

namespace {

// A value the data (zero-filled) never sums to: a branch on it makes every
// load's result needed, so no load is optimised away and the clock read after
// it waits for the data.
constexpr unsigned kNever = 0x7fc0beefu;

__device__ __forceinline__ unsigned long long global_timer_ns() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
    return t;
}

__device__ __forceinline__ unsigned long long sm_clock() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
    return t;
}

__device__ __forceinline__ unsigned sm_id() {
    unsigned id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    return id;
}

// Adds every thread's count to *count with one global atomic per block: one
// per thread (up to 270 Ki of them on one address) serialises in L2 and cost
// the 64-warp points of the read sweep a third of their bandwidth.
__device__ __forceinline__ void add_block_count(unsigned long long read, unsigned long long* count) {
    __shared__ unsigned long long block_read;
    if (threadIdx.x == 0) block_read = 0;
    __syncthreads();
    for (int offset = 16; offset > 0; offset /= 2) read += __shfl_down_sync(0xffffffffu, read, offset);
    if (threadIdx.x % 32 == 0) atomicAdd(&block_read, read);
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(count, block_read);
}

__device__ __forceinline__ float total(float v) { return v; }
__device__ __forceinline__ float total(float2 v) { return v.x + v.y; }
__device__ __forceinline__ float total(float4 v) { return v.x + v.y + v.z + v.w; }

// Each node holds the address of the next one (as the executing GPU sees it):
// a hop is one dependent load, no index arithmetic between the loads (an
// index node added ~4.7 ns a hop in scripts/bench/latency_probe.cu).
__global__ void chase_scatter_kernel(unsigned long long* buf, const std::uint32_t* next, std::uint32_t nodes,
                                     std::uint64_t stride_words) {
    const std::size_t step = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < nodes; i += step)
        buf[i * stride_words] = reinterpret_cast<unsigned long long>(buf + next[i] * stride_words);
}

// Every node read once by one block's threads, many loads in flight: the
// footprint's lines into L2 as the one SM of the chase will see them (read
// from every SM, an 8 MiB cycle then read 173 ns a hop where a walked one
// reads 144 on an H100: the lines sat on the other SMs' side of the L2).
__global__ void chase_touch_kernel(const unsigned long long* buf, std::uint32_t nodes, std::uint64_t stride_words,
                                   unsigned long long* sink) {
    const std::size_t step = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    unsigned long long folded = 0;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < nodes; i += step)
        folded ^= buf[i * stride_words];
    if (folded == kNever) *sink = folded;  // never true: keeps the loads
}

// A segment's sums and its own line (segment 0 starts the sums).
__device__ void record_segment(ChaseResult* out, const ChaseSegment& seg, unsigned long long cycles,
                               unsigned long long ns, unsigned long long last) {
    out->cycles = (seg.segment == 0 ? 0 : out->cycles) + cycles;
    out->ns = (seg.segment == 0 ? 0 : out->ns) + ns;
    out->last = last;
    if (seg.segment < kChaseResultSegments) {
        out->segment_ns[seg.segment] = ns;
        out->segment_sm[seg.segment] = sm_id();
    }
}

// Where a segment starts: the sample's first node, or where the segment before stopped.
__device__ const unsigned long long* segment_start(const unsigned long long* buf, const ChaseSegment& seg,
                                                   const ChaseResult* out) {
    return buf + (seg.segment == 0 ? seg.start : out->last);
}

// Only block seg.block of the grid chases: the SM it lands on is the segment's.
__global__ void chase_kernel(const unsigned long long* buf, ChaseSegment seg, ChaseResult* out) {
    if (blockIdx.x != seg.block) return;
    const unsigned long long* p = segment_start(buf, seg, out);
    for (std::uint64_t i = 0; i < seg.warm; ++i) p = reinterpret_cast<const unsigned long long*>(*p);
    const unsigned long long g0 = global_timer_ns();
    const unsigned long long c0 = sm_clock();
    for (std::uint64_t i = 0; i < seg.steps; ++i) p = reinterpret_cast<const unsigned long long*>(*p);
    // The last load's wait may fall after this read: one load in thousands.
    const unsigned long long c1 = sm_clock();
    const unsigned long long g1 = global_timer_ns();
    record_segment(out, seg, c1 - c0, g1 - g0, static_cast<unsigned long long>(p - buf));
}

// The same chase through the bulk-copy unit: every hop one 16-byte
// cp.async.bulk of the node into shared memory, completed on an mbarrier,
// then the next node's address read from there (nodes are 128-byte aligned).
__global__ void tma_chase_kernel(const unsigned long long* buf, ChaseSegment seg, ChaseResult* out) {
#if __CUDA_ARCH__ >= 900
    if (blockIdx.x != seg.block) return;
    namespace ptx = ::cuda::ptx;
    __shared__ alignas(16) unsigned long long node[2];
    __shared__ alignas(8) std::uint64_t done;
    ptx::mbarrier_init(&done, 1);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    const unsigned long long* p = segment_start(buf, seg, out);
    std::uint32_t phase = 0;
    auto hop = [&] {
        (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &done, 16u);
        ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, node, p, 16u, &done);
        while (!ptx::mbarrier_try_wait_parity(&done, phase)) {
        }
        phase ^= 1u;
        p = reinterpret_cast<const unsigned long long*>(node[0]);
    };
    for (std::uint64_t i = 0; i < seg.warm; ++i) hop();
    const unsigned long long g0 = global_timer_ns();
    const unsigned long long c0 = sm_clock();
    for (std::uint64_t i = 0; i < seg.steps; ++i) hop();
    const unsigned long long c1 = sm_clock();
    const unsigned long long g1 = global_timer_ns();
    record_segment(out, seg, c1 - c0, g1 - g0, static_cast<unsigned long long>(p - buf));
#else
    (void)buf, (void)seg, (void)out;
    __trap();  // PointerChase refuses a TMA chase below sm_90 first
#endif
}

// At most 1024 threads, two blocks per SM: registers capped so 64 warps fit on an SM.
template <class V, int ILP>
__global__ void __launch_bounds__(1024, 2) read_kernel(const V* data, std::size_t n, unsigned long long* count) {
    const std::size_t step = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    float acc = 0;
    unsigned long long read = 0;
    for (; i + (ILP - 1) * step < n; i += ILP * step) {
        V v[ILP];
#pragma unroll
        for (int k = 0; k < ILP; ++k) v[k] = data[i + k * step];  // ILP independent loads in flight
#pragma unroll
        for (int k = 0; k < ILP; ++k) acc += total(v[k]);
        read += ILP;
    }
    for (; i < n; i += step, ++read) acc += total(data[i]);
    if (__float_as_uint(acc) == kNever) count[1] = read;
    add_block_count(read, count);
}

template <class V>
__global__ void strided_kernel(const V* data, std::uint64_t n, std::uint64_t stride, unsigned long long* count) {
    const std::uint64_t step = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
    std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    // (stride x i) % n advanced by additions: a 64-bit modulo per load would make the kernel compute-bound.
    std::uint64_t idx = (stride * i) % n;
    const std::uint64_t advance = (stride * step) % n;
    float acc = 0;
    unsigned long long read = 0;
    for (; i < n; i += step, ++read) {
        acc += total(data[idx]);
        idx += advance;
        if (idx >= n) idx -= n;
    }
    if (__float_as_uint(acc) == kNever) count[1] = read;
    add_block_count(read, count);
}

template <class V>
__global__ void timeline_kernel(const V* data, std::uint64_t threads_total, WarpClock* out) {
    const std::uint64_t tid = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    __syncwarp();
    const unsigned long long g0 = global_timer_ns();
    const unsigned long long c0 = sm_clock();
    const float v = tid < threads_total ? total(data[tid]) : 0.f;
    if (__float_as_uint(v) == kNever) out[0].pad = 1;  // needs the value: waits for the load
    __syncwarp();
    const unsigned long long c1 = sm_clock();
    const unsigned long long g1 = global_timer_ns();
    if (threadIdx.x % 32 == 0 && tid < threads_total) {  // warps past the data (last block) write nothing
        const std::uint64_t w = tid / 32;
        out[w] = WarpClock{sm_id(), blockIdx.x, threadIdx.x / 32, 0, c0, c1, g0, g1};
    }
}

void check_launch(const char* what) {
    const cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) throw_cuda_error(err, what, __FILE__, __LINE__);
}

template <class V>
void read_with_ilp(cudaStream_t s, const V* d, std::size_t n, int ilp, int blocks, int threads,
                   unsigned long long* count) {
    switch (ilp) {
    case 1: read_kernel<V, 1><<<blocks, threads, 0, s>>>(d, n, count); break;
    case 2: read_kernel<V, 2><<<blocks, threads, 0, s>>>(d, n, count); break;
    case 4: read_kernel<V, 4><<<blocks, threads, 0, s>>>(d, n, count); break;
    default: throw MeasurementError("read kernel: ilp must be 1, 2 or 4");
    }
}

template <class V>
int read_blocks_per_sm(int ilp, int threads) {
    int blocks = 0;
    cudaError_t err = cudaSuccess;
    switch (ilp) {
    case 1: err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, read_kernel<V, 1>, threads, 0); break;
    case 2: err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, read_kernel<V, 2>, threads, 0); break;
    case 4: err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, read_kernel<V, 4>, threads, 0); break;
    default: throw MeasurementError("read kernel: ilp must be 1, 2 or 4");
    }
    if (err != cudaSuccess) throw_cuda_error(err, "cudaOccupancyMaxActiveBlocksPerMultiprocessor", __FILE__, __LINE__);
    return blocks;
}

}  // namespace

int read_kernel_blocks_per_sm(int vector_bytes, int ilp, int threads) {
    switch (vector_bytes) {
    case 4: return read_blocks_per_sm<float>(ilp, threads);
    case 8: return read_blocks_per_sm<float2>(ilp, threads);
    case 16: return read_blocks_per_sm<float4>(ilp, threads);
    default: throw MeasurementError("read kernel: element must be 4, 8 or 16 bytes");
    }
}

void launch_chase_scatter(cudaStream_t stream, unsigned long long* buf, const std::uint32_t* next,
                          std::uint32_t nodes, std::uint64_t stride_words, int sm_count) {
    chase_scatter_kernel<<<sm_count * 4, 256, 0, stream>>>(buf, next, nodes, stride_words);
    check_launch("chase_scatter_kernel");
}

void launch_chase_touch(cudaStream_t stream, const unsigned long long* buf, std::uint32_t nodes,
                        std::uint64_t stride_words, unsigned long long* sink) {
    chase_touch_kernel<<<1, 1024, 0, stream>>>(buf, nodes, stride_words, sink);
    check_launch("chase_touch_kernel");
}

void launch_chase(cudaStream_t stream, const unsigned long long* buf, const ChaseSegment& seg, ChaseResult* out) {
    chase_kernel<<<seg.grid, 1, 0, stream>>>(buf, seg, out);
    check_launch("chase_kernel");
}

void launch_tma_chase(cudaStream_t stream, const unsigned long long* buf, const ChaseSegment& seg, ChaseResult* out) {
    tma_chase_kernel<<<seg.grid, 1, 0, stream>>>(buf, seg, out);
    check_launch("tma_chase_kernel");
}

void launch_read(cudaStream_t stream, const void* data, std::size_t bytes, int vector_bytes, int ilp, int blocks,
                 int threads, unsigned long long* count) {
    switch (vector_bytes) {
    case 4: read_with_ilp(stream, static_cast<const float*>(data), bytes / 4, ilp, blocks, threads, count); break;
    case 8: read_with_ilp(stream, static_cast<const float2*>(data), bytes / 8, ilp, blocks, threads, count); break;
    case 16: read_with_ilp(stream, static_cast<const float4*>(data), bytes / 16, ilp, blocks, threads, count); break;
    default: throw MeasurementError("read kernel: element must be 4, 8 or 16 bytes");
    }
    check_launch("read_kernel");
}

void launch_strided(cudaStream_t stream, const void* data, std::uint64_t n, std::uint64_t stride, int element_bytes,
                    int blocks, int threads, unsigned long long* count) {
    if (element_bytes == 4)
        strided_kernel<<<blocks, threads, 0, stream>>>(static_cast<const float*>(data), n, stride, count);
    else if (element_bytes == 16)
        strided_kernel<<<blocks, threads, 0, stream>>>(static_cast<const float4*>(data), n, stride, count);
    else
        throw MeasurementError("strided kernel: element must be 4 or 16 bytes");
    check_launch("strided_kernel");
}

void launch_timeline(cudaStream_t stream, const void* data, std::uint64_t threads_total, int element_bytes,
                     int warps_per_block, WarpClock* out) {
    const int threads = warps_per_block * 32;
    const auto blocks = static_cast<unsigned>((threads_total + threads - 1) / threads);
    if (element_bytes == 4)
        timeline_kernel<<<blocks, threads, 0, stream>>>(static_cast<const float*>(data), threads_total, out);
    else if (element_bytes == 16)
        timeline_kernel<<<blocks, threads, 0, stream>>>(static_cast<const float4*>(data), threads_total, out);
    else
        throw MeasurementError("timeline kernel: element must be 4 or 16 bytes");
    check_launch("timeline_kernel");
}

}  // namespace hwcomm::cuda::gpumem
