#include "import/benchmark_names.hpp"

#include <cctype>
#include <sstream>

namespace hwcomm::import {

namespace {

bool is_uint(const std::string& s) {
    if (s.empty() || s.size() > 9) return false;
    for (char c : s)
        if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    return true;
}

bool ends_with(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// How each known base name maps: method, direction and host allocation.
struct Row {
    const char* base;
    const char* method;
    const char* host_mem;  // "" for GPU-GPU
    enum Shape { NumaGpu, GpuNuma, NumaNuma, NumaGpuGpu, GpuGpu, CommOneGpuH2D, CommOneGpuD2H, CommTwoGpu } shape;
    const char* peer;
};

const Row kTable[] = {
    {"NUMA_Memcpy_HostToGPU", "memcpy-h2d", "pageable", Row::NumaGpu, ""},
    {"NUMA_Memcpy_PinnedToGPU", "memcpy-h2d", "pinned", Row::NumaGpu, ""},
    {"NUMA_Memcpy_WCToGPU", "memcpy-h2d", "wc", Row::NumaGpu, ""},
    {"NUMA_Memcpy_GPUToHost", "memcpy-d2h", "pageable", Row::GpuNuma, ""},
    {"NUMA_Memcpy_GPUToPinned", "memcpy-d2h", "pinned", Row::GpuNuma, ""},
    {"NUMA_Memcpy_GPUToWC", "memcpy-d2h", "wc", Row::GpuNuma, ""},
    {"NUMA_Memcpy_HostToPinned", "memcpy-h2h", "", Row::NumaNuma, ""},
    {"NUMA_Memcpy_GPUToGPU", "memcpy-peer", "", Row::NumaGpuGpu, "off"},
    {"CUDA_Memcpy_GPUToGPU", "memcpy-peer", "", Row::GpuGpu, "on"},
    {"Comm_Memcpy_HostToGPU", "memcpy-h2d", "pageable", Row::CommOneGpuH2D, ""},
    {"Comm_Memcpy_WCToGPU", "memcpy-h2d", "wc", Row::CommOneGpuH2D, ""},
    {"Comm_Memcpy_GPUToHost", "memcpy-d2h", "pageable", Row::CommOneGpuD2H, ""},
    {"Comm_Memcpy_GPUToWC", "memcpy-d2h", "wc", Row::CommOneGpuD2H, ""},
    {"Comm_Memcpy_GPUToGPUPeer", "memcpy-peer", "", Row::CommTwoGpu, "on"},
    {"Comm_Duplex_Memcpy_GPUGPU", "duplex-d2d", "", Row::CommTwoGpu, "on"},
};

}  // namespace

BenchmarkName split_benchmark_name(const std::string& full) {
    BenchmarkName out;
    std::string name = full;
    for (const char* agg : {"mean", "median", "stddev", "cv"}) {
        const std::string tail = std::string("_") + agg;
        if (ends_with(name, tail)) {
            out.aggregate = agg;
            name.erase(name.size() - tail.size());
            break;
        }
    }
    std::stringstream parts(name);
    std::string part;
    std::getline(parts, out.base, '/');
    while (std::getline(parts, part, '/')) {
        // Google Benchmark's own suffixes are not arguments.
        if (part == "manual_time" || part == "real_time" || part == "process_time" ||
            part.rfind("iterations:", 0) == 0 || part.rfind("repeats:", 0) == 0 || part.rfind("threads:", 0) == 0 ||
            part.rfind("min_time:", 0) == 0)
            continue;
        const auto colon = part.find(':');
        out.args.push_back(colon == std::string::npos ? part : part.substr(colon + 1));
    }
    return out;
}

std::optional<MappedBenchmark> map_benchmark(const BenchmarkName& name, std::string* why) {
    const Row* row = nullptr;
    for (const Row& r : kTable)
        if (name.base == r.base) row = &r;
    if (!row) {
        if (why) *why = "unknown benchmark " + name.base;
        return std::nullopt;
    }
    for (const std::string& a : name.args)
        if (!is_uint(a)) {
            if (why) *why = name.base + ": argument '" + a + "' is not a number";
            return std::nullopt;
        }
    const auto& a = name.args;
    auto need = [&](std::size_t n) {
        if (a.size() == n) return true;
        if (why) *why = name.base + " takes " + std::to_string(n) + " arguments, the entry has " + std::to_string(a.size());
        return false;
    };
    MappedBenchmark m;
    m.method = row->method;
    std::string log2;
    switch (row->shape) {
    case Row::NumaGpu:
    case Row::GpuNuma:
        if (!need(3)) return std::nullopt;
        log2 = a[0];
        m.src = row->shape == Row::NumaGpu ? "numa" + a[1] : "gpu" + a[2];
        m.dst = row->shape == Row::NumaGpu ? "gpu" + a[2] : "numa" + a[1];
        m.params = {{"host_mem", row->host_mem}, {"numa", a[1]}};
        break;
    case Row::NumaNuma:
        if (!need(3)) return std::nullopt;
        log2 = a[0];
        m.src = "numa" + a[1];
        m.dst = "numa" + a[2];
        m.params = {{"src_mem", "pageable"}, {"dst_mem", "pinned"}};
        break;
    case Row::NumaGpuGpu:
        if (!need(4)) return std::nullopt;
        log2 = a[0];
        m.src = "gpu" + a[2];
        m.dst = "gpu" + a[3];
        m.params = {{"peer", row->peer}, {"numa", a[1]}};
        break;
    case Row::GpuGpu:
        if (!need(3)) return std::nullopt;
        log2 = a[0];
        m.src = "gpu" + a[1];
        m.dst = "gpu" + a[2];
        m.params = {{"peer", row->peer}};
        break;
    case Row::CommOneGpuH2D:
    case Row::CommOneGpuD2H: {
        if (a.empty() || a.size() > 2) return need(1) ? std::nullopt : std::nullopt;
        log2 = a.back();
        const std::string gpu = "gpu" + (a.size() == 2 ? a[0] : std::string("0"));
        if (a.size() == 1) m.note = "device from the -c flag, not in the file: gpu0 assumed";
        m.src = row->shape == Row::CommOneGpuH2D ? "host" : gpu;
        m.dst = row->shape == Row::CommOneGpuH2D ? gpu : "host";
        m.params = {{"host_mem", row->host_mem}};
        break;
    }
    case Row::CommTwoGpu:
        if (a.size() != 1 && a.size() != 3) return need(1) ? std::nullopt : std::nullopt;
        log2 = a.back();
        m.src = "gpu" + (a.size() == 3 ? a[0] : std::string("0"));
        m.dst = "gpu" + (a.size() == 3 ? a[1] : std::string("1"));
        if (a.size() == 1) m.note = "devices from the -c flags, not in the file: gpu0 and gpu1 assumed";
        m.params = {{"peer", row->peer}};
        break;
    }
    const int shift = std::stoi(log2);
    if (shift > 62) {
        if (why) *why = name.base + ": log2 size " + log2 + " is out of range";
        return std::nullopt;
    }
    m.bytes = 1ull << shift;
    m.bytes_per_rep = static_cast<double>(m.bytes) * (m.method == "duplex-d2d" ? 2.0 : 1.0);
    return m;
}

}  // namespace hwcomm::import
