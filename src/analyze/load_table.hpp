#pragma once
// Bandwidth against load (docs/under-load.md): for each route the under-load
// method measured, its bandwidth alone and with 1, 2, ... other routes loading
// the resource it shares, as a fraction of alone, beside what the load lanes
// moved (U). And the pattern C's priority: latency and bandwidth of one
// transfer alone, at equal and at high priority against a load. Reads results only.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/method_catalog.hpp"
#include "core/results.hpp"

namespace hwcomm::analyze {

struct LoadRow {
    std::size_t loads = 0;
    std::string with;            // the loading routes ("none" alone)
    double gbps = 0;             // the measured route's bandwidth
    double fraction_of_alone = 0;  // 0 when no alone record
    double load_gbps = 0;        // what the load lanes moved inside the window, together
    bool load_covered = true;    // every load lane outlasted the measured window
};

struct LoadTable {
    std::string src, dst;
    std::uint64_t bytes = 0;  // the size compared: the largest every row measured
    std::vector<LoadRow> rows;  // by load count
};

// `catalog` tells which records are under-load and priority records (their rows' view).
std::vector<LoadTable> load_tables(const std::vector<Record>& records, const MethodCatalog& catalog);

struct PriorityRow {
    std::string priority;           // alone | equal | high
    std::uint64_t small_bytes = 0;  // latency: time of one transfer at the smallest size
    double small_seconds = 0;
    double small_wait_seconds = 0;  // small_seconds - alone's at the same size (0 for alone): the wait behind the load
    // A loaded transfer either starts at once or waits for SM slots or the
    // link's queue, so its times come in two modes and the median may land
    // in either (nvidia-h200-x2 at 730d24c, gpu0->gpu1 4 KiB: equal 6.3-6.7
    // or 77.7-87.0 us, high 6.3-6.5 or 46.5-52.5 us). Per mode: the samples
    // at the smallest size beyond twice alone's median waited.
    std::size_t small_samples = 0, small_waited = 0;
    double wait_when_waited_seconds = 0;  // the median waited sample - alone's median; 0 when none waited
    std::uint64_t large_bytes = 0;  // bandwidth at the largest size
    double large_gbps = 0;
};
struct PriorityTable {
    std::string src, dst;
    std::string engine;  // "sm" (copy kernels) or "ce" (copy engines; files before issue 22 name none: ce)
    std::vector<PriorityRow> rows;
};
std::vector<PriorityTable> priority_tables(const std::vector<Record>& records, const MethodCatalog& catalog);

std::string format_load_tables(const std::vector<LoadTable>& load, const std::vector<PriorityTable>& priority);
nlohmann::json load_tables_to_json(const std::vector<LoadTable>& load, const std::vector<PriorityTable>& priority);

}  // namespace hwcomm::analyze
