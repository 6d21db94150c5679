#pragma once
// Parameter keys and values of the methods' records, as results files spell
// them (record params, Record::params): one struct per key, its `key` and
// its allowed values. Read `params.at(HostMem::key) == HostMem::Pinned`,
// never the literals. A key whose value is a number or a list (numa, loads)
// has no value constants.
namespace hwcomm {

struct HostMem {
    static constexpr const char* key = "host_mem";
    static constexpr const char* Pageable = "pageable";      // malloc, first touch
    static constexpr const char* Pinned = "pinned";          // cudaHostAlloc
    static constexpr const char* Registered = "registered";  // NUMA-bound, cudaHostRegister
    static constexpr const char* Wc = "wc";                  // write-combined cudaHostAlloc
    static constexpr const char* Huge = "huge";              // registered, on transparent huge pages
};

struct Peer {
    static constexpr const char* key = "peer";
    static constexpr const char* On = "on";
    static constexpr const char* Off = "off";
};

// OS index of the NUMA node holding the host buffer.
struct NumaParam {
    static constexpr const char* key = "numa";
};

struct Threads {
    static constexpr const char* key = "threads";
    static constexpr const char* Single = "single";
    static constexpr const char* Multi = "multi";
};

// CPU stores: ordinary, or non-temporal (no read for ownership, caches bypassed).
struct StoresParam {
    static constexpr const char* key = "stores";
    static constexpr const char* Plain = "plain";
    static constexpr const char* Nt = "nt";
};

struct DiskIoParam {
    static constexpr const char* key = "io";
    static constexpr const char* Buffered = "buffered";
    static constexpr const char* Direct = "direct";
    static constexpr const char* Fread = "fread";
};

struct SrcMem {
    static constexpr const char* key = "src_mem";
    static constexpr const char* Pageable = "pageable";
};

struct DstMem {
    static constexpr const char* key = "dst_mem";
    static constexpr const char* Registered = "registered";
    static constexpr const char* Pinned = "pinned";  // Comm|Scope's HostToPinned, imported
};

// Which engine moves the bytes of a concurrency lane.
struct CopyMode {
    static constexpr const char* key = "mode";
    static constexpr const char* Ce = "ce";  // copy engines
    static constexpr const char* Sm = "sm";  // copy kernels
    static constexpr const char* Tma = "tma";  // bulk copies by the TMA unit (sm_90+)
};

// priority: who moves the transfer and the load.
struct EngineParam {
    static constexpr const char* key = "engine";
    static constexpr const char* Sm = "sm";  // copy kernels: stream priorities order their blocks
    static constexpr const char* Ce = "ce";  // copy engines: served in queue order
};

struct Initiator {
    static constexpr const char* key = "initiator";
    static constexpr const char* Src = "src";
    static constexpr const char* Dst = "dst";
};

// transfer-set: the set's name in the --transfers file (the record's param),
// and what each lane says of itself (lane params).
struct TransferSetParam {
    static constexpr const char* key = "set";
};
struct ExecutorParam {
    static constexpr const char* key = "executor";
    static constexpr const char* Ce = "ce";    // copy engines
    static constexpr const char* Sm = "sm";    // copy kernels
    static constexpr const char* Tma = "tma";  // bulk copies (sm_90 and newer)
    static constexpr const char* Cpu = "cpu";  // CPU threads bound to one NUMA node
};
// SMs a kernel lane is sized for, threads of a CPU lane.
struct UnitsParam {
    static constexpr const char* key = "units";
};
// The NUMA node whose cores run a CPU lane (its OS index).
struct WorkersNumaParam {
    static constexpr const char* key = "workers_numa";
};

// gpumem-latency: whose memory the pointer chase walks.
struct MemoryParam {
    static constexpr const char* key = "memory";
    static constexpr const char* Local = "local";
    static constexpr const char* PeerGpu = "peer";
    static constexpr const char* HostPinned = "host-pinned";
};

// gpumem-latency: the chase's order. Absent: a random single cycle (the headline);
// ring128: nodes in address order, 128 bytes apart up to 512 MiB (nvbandwidth's layout).
struct ChaseLayoutParam {
    static constexpr const char* key = "layout";
    static constexpr const char* Ring128 = "ring128";
};

// under-load: how many other routes load the resource, and which.
struct LoadsParam {
    static constexpr const char* key = "loads";
};
struct WithParam {
    static constexpr const char* key = "with";
    static constexpr const char* None = "none";
};
// lane-sweep: how many of a shared resource's routes run at once.
struct LanesParam {
    static constexpr const char* key = "lanes";
};

// mpi-host, mpi-gpu.
struct MpiOp {
    static constexpr const char* key = "op";
    static constexpr const char* Sendrecv = "sendrecv";
    static constexpr const char* Put = "put";
};
struct MpiDirection {
    static constexpr const char* key = "direction";
    static constexpr const char* Uni = "uni";
    static constexpr const char* Bi = "bi";  // both ways at once: the bytes of both
};
struct MpiPlacement {
    static constexpr const char* key = "placement";
    static constexpr const char* NearNic = "near-nic";
    static constexpr const char* Far = "far";
};
struct MpiPath {
    static constexpr const char* key = "path";
    static constexpr const char* CudaAware = "cuda-aware";
    static constexpr const char* Staged = "staged";
};

}  // namespace hwcomm
