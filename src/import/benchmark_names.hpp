#pragma once
// Comm|Scope benchmark names to hwcomm records (docs/import.md): which method
// and fixed params each base name means is in the catalog rows' import_names
// (src/catalog), how its arguments name the endpoints is their ImportShape.
// Study-era names carry their devices as arguments (log2 size first); current
// Comm_* names take log2 size last and their devices come from the -c flags
// (absent from the file: gpu0, and gpu1 for two-GPU benchmarks) unless they
// are given as arguments before the size.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hwcomm::import {

struct MappedBenchmark {
    std::string method, src, dst;
    std::map<std::string, std::string> params;
    std::uint64_t bytes = 0;        // 2^log2size
    double bytes_per_rep = 0;       // bytes moved per transfer (2x bytes for duplex)
    std::string note;               // e.g. "devices assumed: gpu0, gpu1 (from -c flags, not in the file)"
};

// A benchmark entry's name split into its parts: "NUMA_Memcpy_GPUToGPU",
// {"20","0","0","1"}, aggregate "mean"|"median"|"stddev"|"cv"|"" and whether
// it is timed manually.
struct BenchmarkName {
    std::string base;
    std::vector<std::string> args;  // "key:value" arguments reduced to value
    std::string aggregate;
};
BenchmarkName split_benchmark_name(const std::string& name);

// nullopt when the base name is not in the table or the arguments do not fit
// it (`why` says which).
std::optional<MappedBenchmark> map_benchmark(const BenchmarkName& name, std::string* why);

}  // namespace hwcomm::import
