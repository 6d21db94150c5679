// Probe: which read-kernel shape gets closest to the DRAM peak (issue 9, item 3).
// Not part of hwcomm; built and run by hand on a GPU machine:
//   nvcc -O3 -arch=sm_90 -o dram_read_probe scripts/bench/dram_read_probe.cu && ./dram_read_probe
// Prints GB/s (bytes read / best kernel time of 20, events) per variant and footprint.
#include <cstdio>
#include <cuda_runtime.h>

template <int ILP, bool kStreaming>
__global__ void read_kernel(const float4* d, size_t n, float* sink) {
    const size_t step = size_t(gridDim.x) * blockDim.x;
    size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    float acc = 0;
    for (; i + (ILP - 1) * step < n; i += ILP * step) {
        float4 v[ILP];
#pragma unroll
        for (int k = 0; k < ILP; ++k) v[k] = kStreaming ? __ldcs(d + i + k * step) : d[i + k * step];
#pragma unroll
        for (int k = 0; k < ILP; ++k) acc += v[k].x + v[k].y + v[k].z + v[k].w;
    }
    for (; i < n; i += step) acc += d[i].x;
    if (acc == 1234.5f) *sink = acc;
}

// Each block reads one contiguous chunk (ILP loads per thread per step within the chunk).
template <int ILP>
__global__ void chunk_kernel(const float4* d, size_t n, float* sink) {
    const size_t per_block = (n + gridDim.x - 1) / gridDim.x;
    const size_t begin = size_t(blockIdx.x) * per_block;
    const size_t end = begin + per_block < n ? begin + per_block : n;
    float acc = 0;
    size_t i = begin + threadIdx.x;
    for (; i + (ILP - 1) * blockDim.x < end; i += ILP * blockDim.x) {
        float4 v[ILP];
#pragma unroll
        for (int k = 0; k < ILP; ++k) v[k] = d[i + k * blockDim.x];
#pragma unroll
        for (int k = 0; k < ILP; ++k) acc += v[k].x + v[k].y + v[k].z + v[k].w;
    }
    for (; i < end; i += blockDim.x) acc += d[i].x;
    if (acc == 1234.5f) *sink = acc;
}

template <class F>
double best_gbps(F launch, size_t bytes) {
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    launch();
    float best = 1e30f;
    for (int r = 0; r < 20; ++r) {
        cudaEventRecord(a);
        launch();
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        float ms;
        cudaEventElapsedTime(&ms, a, b);
        if (ms < best) best = ms;
    }
    return bytes / (best * 1e-3) / 1e9;
}

int main() {
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    int sms = p.multiProcessorCount;
    int mem_khz = 0, bus_bits = 0;
    cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, 0);
    cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0);
    printf("%s: %d SMs, theoretical %.0f GB/s\n", p.name, sms, 2.0 * mem_khz * 1e3 * bus_bits / 8 / 1e9);
    float* sink;
    cudaMalloc(&sink, 4);
    for (size_t gib : {1, 4}) {
        size_t bytes = gib << 30, n = bytes / 16;
        float4* d;
        if (cudaMalloc(&d, bytes) != cudaSuccess) return 1;
        cudaMemset(d, 0, bytes);
        for (int threads : {256, 512, 1024})
            for (int bpsm : {1, 2, 4, 8}) {
                if (threads * bpsm > 2048) continue;
                int blocks = sms * bpsm;
                printf("%zu GiB threads %4d blocks/SM %d: grid ilp4 %.0f  ilp8 %.0f  ilp4-cs %.0f  chunk ilp4 %.0f  chunk ilp8 %.0f\n",
                       gib, threads, bpsm,
                       best_gbps([&] { read_kernel<4, false><<<blocks, threads>>>(d, n, sink); }, bytes),
                       best_gbps([&] { read_kernel<8, false><<<blocks, threads>>>(d, n, sink); }, bytes),
                       best_gbps([&] { read_kernel<4, true><<<blocks, threads>>>(d, n, sink); }, bytes),
                       best_gbps([&] { chunk_kernel<4><<<blocks, threads>>>(d, n, sink); }, bytes),
                       best_gbps([&] { chunk_kernel<8><<<blocks, threads>>>(d, n, sink); }, bytes));
            }
        cudaFree(d);
    }
    return 0;
}
