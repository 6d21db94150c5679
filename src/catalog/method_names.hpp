#pragma once
// Every method's name once, as results files spell it. Methods return these
// from name(); the catalog's rows use them; nothing else spells a name.
namespace hwcomm::method_name {

// CPU (methods/cpu) and disk (methods/disk): every build.
inline constexpr const char* kCpuRead = "cpu-read";
inline constexpr const char* kCpuWrite = "cpu-write";
inline constexpr const char* kCpuMemcpy = "memcpy";
inline constexpr const char* kCpuCopy = "cpu-copy";                   // STREAM Copy
inline constexpr const char* kCpuTriad = "cpu-triad";                 // STREAM Triad
inline constexpr const char* kCpuLatency = "cpu-latency";             // idle latency ladder and NUMA matrix
inline constexpr const char* kCpuLoadedLatency = "cpu-loaded-latency";  // latency while other cores stream
inline constexpr const char* kCpuBandwidthMix = "cpu-bandwidth-mix";  // read/write-mix NUMA matrix
inline constexpr const char* kDiskRead = "disk-read";

// Copy-engine copies (methods/cuda/copy).
inline constexpr const char* kMemcpyH2D = "memcpy-h2d";
inline constexpr const char* kMemcpyD2H = "memcpy-d2h";
inline constexpr const char* kMemcpyH2H = "memcpy-h2h";
inline constexpr const char* kMemcpyD2D = "memcpy-d2d";
inline constexpr const char* kMemcpyPeer = "memcpy-peer";
inline constexpr const char* kDuplexD2D = "duplex-d2d";
inline constexpr const char* kDuplexH2D = "duplex-h2d";
// Copy kernels (methods/cuda/copy).
inline constexpr const char* kSmCopyD2D = "sm-copy-d2d";
inline constexpr const char* kSmCopyD2DPush = "sm-copy-d2d-push";
inline constexpr const char* kSmCopyH2D = "sm-copy-h2d";
inline constexpr const char* kSmCopyD2H = "sm-copy-d2h";
// Bulk copies by the Hopper TMA unit, sm_90+ (methods/cuda/copy).
inline constexpr const char* kTmaCopyD2D = "tma-copy-d2d";
inline constexpr const char* kTmaCopyH2D = "tma-copy-h2d";
inline constexpr const char* kTmaCopyD2H = "tma-copy-d2h";
// Several transfers at once (methods/cuda/concurrency).
inline constexpr const char* kAllToHost = "all-to-host";
inline constexpr const char* kHostToAll = "host-to-all";
inline constexpr const char* kAllToOne = "all-to-one";
inline constexpr const char* kOneToAll = "one-to-all";
inline constexpr const char* kPairsSharingALink = "pairs-sharing-a-link";
// Transfers from a file, started together (methods/transfers; hwcomm run --transfers).
inline constexpr const char* kTransferSet = "transfer-set";
// Kernels on mapped memory (methods/cuda/zerocopy) and managed memory (methods/cuda/um).
inline constexpr const char* kZeroCopyRead = "zero-copy-read";
inline constexpr const char* kZeroCopyWrite = "zero-copy-write";
inline constexpr const char* kUmPrefetch = "um-prefetch";
inline constexpr const char* kUmDemand = "um-demand";
// Transfers against background load (methods/cuda/load).
inline constexpr const char* kUnderLoad = "under-load";
inline constexpr const char* kInFlight = "in-flight";
inline constexpr const char* kPriority = "priority";
inline constexpr const char* kLaneSweep = "lane-sweep";
// GPU memory microbenchmarks (methods/cuda/gpumem, hwcomm gpumem).
inline constexpr const char* kGpumemTimeline = "gpumem-timeline";
inline constexpr const char* kGpumemOccupancy = "gpumem-occupancy";
inline constexpr const char* kGpumemStride = "gpumem-stride";
inline constexpr const char* kGpumemLatency = "gpumem-latency";
inline constexpr const char* kGpumemTmaLatency = "gpumem-tma-latency";
inline constexpr const char* kGpumemLoadedLatency = "gpumem-loaded-latency";
// Between ranks of hwcomm run --mpi (methods/mpi).
inline constexpr const char* kMpiHost = "mpi-host";
inline constexpr const char* kMpiGpu = "mpi-gpu";
// Test only: fault injection (methods/cuda/faults, HWCOMM_TEST_FAULT_METHODS=1).
inline constexpr const char* kFaultAlloc = "fault-alloc";
inline constexpr const char* kFaultPeer = "fault-peer";
inline constexpr const char* kFaultKernel = "fault-kernel";
inline constexpr const char* kFaultVanish = "fault-vanish";

}  // namespace hwcomm::method_name
