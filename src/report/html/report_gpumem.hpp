#pragma once
// The report's GPU memory section (docs/gpumem.md): per-warp timelines,
// occupancy against throughput with Little's-law bounds, strided access and
// the latency ladder, built from the gpumem-* records so tests can assert
// what the page draws.
#include <cstddef>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/results.hpp"
#include "report/html/report_model.hpp"

namespace hwcomm::report_html {

// Warp lines drawn per timeline chart at most (the record keeps up to 2048):
// the earliest, so each line's length stays visible against the chart's span.
inline constexpr std::size_t kMaxTimelineWarps = 256;

// {"timelines":[{title, file, charts:[...]}], "occupancy":[...], "stride":[...], "latency":[...]};
// every list empty when no input has gpumem records.
nlohmann::json gpumem_model(const std::vector<ReportInput>& inputs);

// One gpumem-timeline record's charts, by element size then warps per block:
// {element_bytes, warps_per_block, kept, drawn, start[], stop[], sm[], first[], block[], unit, metrics...}.
nlohmann::json timeline_charts(const Record& record);

}  // namespace hwcomm::report_html
