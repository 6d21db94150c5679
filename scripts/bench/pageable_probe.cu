// Probe for the pageable-copy question of the sixteenth session: in three
// multi-GPU default runs (4x H200 twice, 2x H100 once) gpu0's pageable copies
// were the fastest of their class. Is it the GPU (its context, its staging
// buffers, its link), the order of measurement (gpu0 is swept first, while
// the host is quiet), the buffer (a fresh malloc against a recycled one, huge
// pages or not) or the core the copying thread ran on? Every GPU is measured
// in rounds whose order alternates (0..N-1, then N-1..0), with one pageable
// buffer shared by all GPUs and then a fresh buffer per GPU and round, the
// thread free and then bound to one core, and pinned copies as the link's
// reference. Not part of hwcomm; built here with nvcc, run on a GPU machine:
//   nvcc -O3 -std=c++17 -o pageable_probe scripts/bench/pageable_probe.cu
//   ./pageable_probe [--mib 64] [--rounds 3] [--copies 7] [--init-reverse 1]
// One line per (round, buffer, binding, gpu, direction): the median and range
// of the copies' GB/s (1e9 B/s, bytes copied once, wall clock from the call
// to cudaDeviceSynchronize's return, as hwcomm times pageable copies), the
// cores the thread ran on, and the buffer's share of huge pages.
#include <cuda_runtime.h>
#include <sched.h>
#include <sys/mman.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>

#include "probe_common.cuh"  // CHECK

namespace {

struct Options {
    std::size_t mib = 64;
    int rounds = 3, copies = 7;
    bool init_reverse = false;
};

double now_s() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// Kilobytes of `p`'s mapping that are anonymous huge pages (/proc/self/smaps).
long huge_kib_of(const void* p) {
    std::ifstream smaps("/proc/self/smaps");
    const auto addr = reinterpret_cast<unsigned long>(p);
    std::string line;
    bool inside = false;
    while (std::getline(smaps, line)) {
        unsigned long lo = 0, hi = 0;
        if (std::sscanf(line.c_str(), "%lx-%lx ", &lo, &hi) == 2 && line.find(':') > line.find(' ')) {
            inside = addr >= lo && addr < hi;
            continue;
        }
        if (inside && line.rfind("AnonHugePages:", 0) == 0) return std::atol(line.c_str() + 14);
    }
    return -1;
}

std::string first_line(const char* path) {
    std::ifstream f(path);
    std::string s;
    std::getline(f, s);
    return s;
}

struct Buffer {
    std::byte* p = nullptr;
    std::size_t bytes = 0;
    explicit Buffer(std::size_t n) : p(static_cast<std::byte*>(std::malloc(n))), bytes(n) {
        if (!p) std::exit(1);
        std::memset(p, 0x5a, n);  // first touch, as hwcomm's pageable buffers
    }
    ~Buffer() { std::free(p); }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
};

struct Result {
    double median = 0, lo = 0, hi = 0;
    std::set<int> cpus;
};

Result copies(int gpu, void* dev, void* host, std::size_t bytes, bool h2d, int n) {
    CHECK(cudaSetDevice(gpu));
    Result r;
    std::vector<double> gbps;
    for (int i = 0; i <= n; ++i) {  // the first is the warm-up
        r.cpus.insert(sched_getcpu());
        const double t0 = now_s();
        if (h2d) CHECK(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice));
        else CHECK(cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost));
        CHECK(cudaDeviceSynchronize());
        const double dt = now_s() - t0;
        r.cpus.insert(sched_getcpu());
        if (i > 0) gbps.push_back(static_cast<double>(bytes) / dt / 1e9);
    }
    std::sort(gbps.begin(), gbps.end());
    r.median = gbps[gbps.size() / 2];
    r.lo = gbps.front();
    r.hi = gbps.back();
    return r;
}

std::string cpus_text(const std::set<int>& cpus) {
    std::ostringstream o;
    bool first = true;
    for (int c : cpus) o << (first ? "" : ",") << c, first = false;
    return o.str();
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string k = argv[i];
        if (k == "--mib") o.mib = std::strtoul(argv[i + 1], nullptr, 10);
        else if (k == "--rounds") o.rounds = std::atoi(argv[i + 1]);
        else if (k == "--copies") o.copies = std::atoi(argv[i + 1]);
        else if (k == "--init-reverse") o.init_reverse = std::atoi(argv[i + 1]) != 0;
    }
    int n = 0;
    CHECK(cudaGetDeviceCount(&n));
    const std::size_t bytes = o.mib << 20;
    std::printf("# gpus %d, %zu MiB, rounds %d, copies %d, contexts made in %s order; THP %s\n", n, o.mib, o.rounds,
                o.copies, o.init_reverse ? "reverse" : "ordinal", first_line("/sys/kernel/mm/transparent_hugepage/enabled").c_str());
    std::vector<void*> dev(n);
    for (int k = 0; k < n; ++k) {
        const int g = o.init_reverse ? n - 1 - k : k;
        CHECK(cudaSetDevice(g));
        CHECK(cudaMalloc(&dev[g], bytes));
        CHECK(cudaMemset(dev[g], 1, bytes));
    }
    void* pinned = nullptr;
    CHECK(cudaHostAlloc(&pinned, bytes, cudaHostAllocPortable));
    std::memset(pinned, 0x33, bytes);
    Buffer shared(bytes);
    std::printf("%-5s %-6s %-6s %-4s %-4s %8s %8s %8s  %-10s %s\n", "round", "buffer", "bind", "gpu", "dir", "median",
                "lo", "hi", "cpus", "huge_kib");
    cpu_set_t all;
    CPU_ZERO(&all);
    sched_getaffinity(0, sizeof(all), &all);
    int one_core = -1;
    for (int c = CPU_SETSIZE - 1; c >= 0 && one_core < 0; --c)
        if (CPU_ISSET(c, &all)) one_core = c;  // the last allowed core: seldom the one interrupts go to
    for (int round = 0; round < o.rounds; ++round) {
        for (const char* buffer : {"shared", "fresh", "pinned"}) {
            for (const char* bind : {"free", "core"}) {
                if (std::strcmp(bind, "core") == 0) {
                    cpu_set_t one;
                    CPU_ZERO(&one);
                    CPU_SET(one_core, &one);
                    sched_setaffinity(0, sizeof(one), &one);
                } else {
                    sched_setaffinity(0, sizeof(all), &all);
                }
                for (int k = 0; k < n; ++k) {
                    const int g = round % 2 == 0 ? k : n - 1 - k;
                    for (const bool h2d : {true, false}) {
                        std::unique_ptr<Buffer> fresh;
                        void* host = pinned;
                        long huge = 0;
                        if (std::strcmp(buffer, "shared") == 0) host = shared.p, huge = huge_kib_of(shared.p);
                        if (std::strcmp(buffer, "fresh") == 0) {
                            fresh = std::make_unique<Buffer>(bytes);
                            host = fresh->p;
                            huge = huge_kib_of(fresh->p);
                        }
                        const Result r = copies(g, dev[g], host, bytes, h2d, o.copies);
                        std::printf("%-5d %-6s %-6s %-4d %-4s %8.2f %8.2f %8.2f  %-10s %ld\n", round, buffer, bind, g,
                                    h2d ? "h2d" : "d2h", r.median, r.lo, r.hi, cpus_text(r.cpus).c_str(), huge);
                        std::fflush(stdout);
                    }
                }
            }
        }
    }
    CHECK(cudaFreeHost(pinned));
    return 0;
}
