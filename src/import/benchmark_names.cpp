#include "import/benchmark_names.hpp"

#include <cctype>
#include <sstream>

#include "catalog/method_catalog.hpp"
#include "catalog/method_params.hpp"

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

// The catalog row and import name of a Comm|Scope base name (the rows'
// import_names: src/catalog).
struct Known {
    const MethodRow* row = nullptr;
    const ImportName* name = nullptr;
};

Known find_import_name(const std::string& base) {
    for (const MethodRow& row : builtin_catalog().rows())
        for (const ImportName& n : row.import_names)
            if (n.benchmark == base) return {&row, &n};
    return {};
}

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
    const Known known = find_import_name(name.base);
    if (!known.row) {
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
    m.method = known.row->name;
    m.params = known.name->params;
    std::string log2;
    switch (known.name->shape) {
    case ImportShape::NumaGpu:
    case ImportShape::GpuNuma: {
        if (!need(3)) return std::nullopt;
        log2 = a[0];
        const bool to_gpu = known.name->shape == ImportShape::NumaGpu;
        m.src = to_gpu ? "numa" + a[1] : "gpu" + a[2];
        m.dst = to_gpu ? "gpu" + a[2] : "numa" + a[1];
        m.params[NumaParam::key] = a[1];
        break;
    }
    case ImportShape::NumaNuma:
        if (!need(3)) return std::nullopt;
        log2 = a[0];
        m.src = "numa" + a[1];
        m.dst = "numa" + a[2];
        break;
    case ImportShape::NumaGpuGpu:
        if (!need(4)) return std::nullopt;
        log2 = a[0];
        m.src = "gpu" + a[2];
        m.dst = "gpu" + a[3];
        m.params[NumaParam::key] = a[1];
        break;
    case ImportShape::GpuGpu:
        if (!need(3)) return std::nullopt;
        log2 = a[0];
        m.src = "gpu" + a[1];
        m.dst = "gpu" + a[2];
        break;
    case ImportShape::HostToOneGpu:
    case ImportShape::OneGpuToHost: {
        if (a.empty() || a.size() > 2) return need(1) ? std::nullopt : std::nullopt;
        log2 = a.back();
        const std::string gpu = "gpu" + (a.size() == 2 ? a[0] : std::string("0"));
        if (a.size() == 1) m.note = "device from the -c flag, not in the file: gpu0 assumed";
        const bool to_gpu = known.name->shape == ImportShape::HostToOneGpu;
        m.src = to_gpu ? "host" : gpu;
        m.dst = to_gpu ? gpu : "host";
        break;
    }
    case ImportShape::TwoGpus:
        if (a.size() != 1 && a.size() != 3) return need(1) ? std::nullopt : std::nullopt;
        log2 = a.back();
        m.src = "gpu" + (a.size() == 3 ? a[0] : std::string("0"));
        m.dst = "gpu" + (a.size() == 3 ? a[1] : std::string("1"));
        if (a.size() == 1) m.note = "devices from the -c flags, not in the file: gpu0 and gpu1 assumed";
        break;
    }
    const int shift = std::stoi(log2);
    if (shift > 62) {
        if (why) *why = name.base + ": log2 size " + log2 + " is out of range";
        return std::nullopt;
    }
    m.bytes = 1ull << shift;
    // A duplex row counts both directions' bytes.
    m.bytes_per_rep = static_cast<double>(m.bytes) * (is_duplex(*known.row, m.params) ? 2.0 : 1.0);
    return m;
}

}  // namespace hwcomm::import
