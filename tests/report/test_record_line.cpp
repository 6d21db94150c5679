// The log line of a finished record shows the method's own headline (its
// catalog row), issue 25: a latency in ns, the best over a method's axes with
// the values that gave it, a cache-resident peak marked as such.
#include <gtest/gtest.h>

#include <algorithm>

#include "analyze/curve_metrics.hpp"
#include "catalog/method_catalog.hpp"
#include "catalog/method_names.hpp"
#include "core/graph_json.hpp"
#include "io/results_file.hpp"
#include "report/text/record_line.hpp"

using namespace hwcomm;

namespace {

const ResultsFile& all_methods() {
    static const ResultsFile f = load_results_file(HWCOMM_DOCS "/examples/h200x2/results-default-all-methods.json.gz");
    return f;
}

std::string line_of(const ResultsFile& f, const Record& r, const Graph* g) {
    return text::record_line(r, builtin_catalog().find(r.method), g, 1, f.records.size());
}

}  // namespace

TEST(RecordLine, EachMethodShowsItsOwnHeadline) {
    const ResultsFile& f = all_methods();
    const Graph g = graph_from_json(f.topology);
    std::size_t latency = 0, occupancy = 0, cached = 0;
    for (const Record& r : f.records) {
        if (r.status != "ok") continue;
        const std::string line = line_of(f, r, &g);
        if (r.method == method_name::kGpumemLatency) {
            ++latency;
            EXPECT_NE(line.find(": latency_ns "), std::string::npos) << line;
            EXPECT_NE(line.find(" ns at "), std::string::npos) << line;
            EXPECT_EQ(line.find("GB/s"), std::string::npos) << line;
        }
        if (r.method == method_name::kGpumemOccupancy) {
            ++occupancy;
            double best = 0;
            for (const Point& p : r.points)
                if (p.status == "ok") best = std::max(best, p.bandwidth_gbps);
            char figure[32];
            std::snprintf(figure, sizeof figure, "best %.2f GB/s at ", best);
            EXPECT_NE(line.find(figure), std::string::npos) << line;
            for (const char* axis : {" element_bytes=", " ilp=", " warps_per_sm="})
                EXPECT_NE(line.find(axis), std::string::npos) << line;
            EXPECT_EQ(line.find(" GiB "), std::string::npos) << line;  // no bytes axis it does not have
        }
        // A peak that a cache holds says so, as summary marks it.
        const auto m = analyze::curve_metrics(r, builtin_catalog().find(r.method), &g);
        if (builtin_catalog().find(r.method)->headline.kind == HeadlineKind::PeakBandwidth && m.best) {
            const bool marked = line.find("(fits the ") != std::string::npos;
            EXPECT_EQ(marked, m.best->cache_resident) << line;
            cached += marked;
        }
    }
    EXPECT_EQ(latency, 6u);
    EXPECT_EQ(occupancy, 2u);
    EXPECT_GT(cached, 0u);
}

TEST(RecordLine, AnErrorRecordSaysItsErrorAndAMethodWithoutARowItsPeak) {
    Record r;
    r.method = "not-a-method", r.src = "numa0", r.dst = "numa0", r.status = "error", r.error = "prepare: no memory";
    EXPECT_EQ(text::record_line(r, nullptr, nullptr, 2, 3), "[2/3] not-a-method numa0->numa0: error: prepare: no memory");
    r.status = "ok";
    Point p;
    p.bytes = 1 << 20, p.bandwidth_gbps = 2, p.stats.n = 1, p.stats.median = (1 << 20) / 2e9, p.bytes_per_rep = 1 << 20;
    p.samples_s = {p.stats.median};
    r.points = {p};
    EXPECT_EQ(text::record_line(r, nullptr, nullptr, 1, 1), "[1/1] not-a-method numa0->numa0: peak 2.00 GB/s at 1 MiB, 1 MiB 2.00 GB/s");
}

// priority's headline is one transfer's time at the smallest size per
// priority (it was "no points" before: the line had no case for it).
TEST(RecordLine, PriorityShowsEachPrioritysTimeAtTheSmallestSize) {
    const ResultsFile f = load_results_file(HWCOMM_DOCS "/examples/h200x4/a58615a/default.json.gz");
    std::size_t n = 0;
    for (const Record& r : f.records) {
        if (r.method != "priority" || r.status != "ok") continue;
        ++n;
        const std::string line = line_of(f, r, nullptr);
        EXPECT_EQ(line.find("no points"), std::string::npos) << line;
        EXPECT_NE(line.find("time at 4 KiB: priority=alone "), std::string::npos) << line;
        EXPECT_NE(line.find(" us"), std::string::npos) << line;
    }
    EXPECT_EQ(n, 4u);
}
