#pragma once
// The study's six tables as cells with a verdict, decided by an explicit rule
// (docs/analysis.md), plus what the study did not ask: each path's efficiency
// against its bottleneck and a list of anomalies. Works on measured and
// imported results files alike; reads only results files.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyze/curve_metrics.hpp"
#include "core/graph.hpp"
#include "core/results.hpp"

namespace hwcomm::analyze {

inline constexpr const char* kAnalyzeSchema = "hwcomm.analyze/v1";

// How a verdict is decided. Two series are compared size by size at the sizes
// both measured in [min_bytes, max_bytes] (sizes where bandwidth, not latency,
// dominates): the relative difference a(n)/b(n) - 1 at each size, reduced
// over sizes by `statistic`. A difference beyond `threshold` is an effect.
struct VerdictRule {
    std::string statistic = "median";       // "median" | "mean" | "max"
    std::uint64_t min_bytes = 64 * kMiB;
    std::uint64_t max_bytes = 0;            // 0 = no upper bound
    double threshold = 0.05;
    // Whether a size lies in the window [min_bytes, max_bytes] the verdicts compare.
    bool in_window(std::uint64_t bytes) const { return bytes >= min_bytes && (max_bytes == 0 || bytes <= max_bytes); }
    // The per-size differences (in size order, not empty) reduced by `statistic`:
    // "max" is the one of largest magnitude, the first in size order on a tie.
    double reduce(std::vector<double> differences) const;
};

// One curve: a record seen as the study's series.
// One link measured twice at a size: first (a representative's sweep, a
// confirmation's first measurement) and again (measured beside its class, a
// confirmation's kept measurement). How far one link moves between two
// measurements is the yardstick for how far identical links may differ.
struct SameLinkRepeat {
    std::uint64_t bytes = 0;
    double first_gbps = 0, again_gbps = 0;
};

struct Series {
    std::string key;                  // the record's key
    std::string source;               // file it came from
    std::string method;
    std::string src_id, dst_id;       // graph ids ("numa1", "gpu3")
    std::string src, dst;             // "cpu<socket>" / "gpu<cuda index>"
    std::string link;                 // "cpu-gpu" | "gpu-gpu" | "cpu-cpu"
    std::string host_alloc;           // pageable|pinned|wc|pageable-to-pinned; "" = null
    std::string peer;                 // on|off; "" = null
    std::optional<int> numa;          // NUMA OS index of the host buffer / peer-off binding
    std::string direction;            // h2d|d2h for cpu-gpu
    std::string locality;             // local|remote|"" (unknown)
    std::optional<bool> peer_possible;  // gpu-gpu: can the pair enable peer access
    std::string path_class;           // gpu-gpu: nvidia-smi class ("NV1", "SYS")
    std::string link_class;           // identical-link class id ("c3", classes/); "" without a topology
    std::string link_class_description;
    std::optional<int> src_gpu_numa;  // gpu-gpu: the NUMA node local to the source GPU
    double peak_gbps = 0;
    std::optional<double> at_1gib_gbps;
    std::size_t n_sizes = 0;
    std::optional<double> window_gbps;  // the rule's statistic of the window's bandwidths (shown, not compared)
    std::map<std::uint64_t, double> window_points;  // size -> GB/s inside the rule's window
    // window_points as its link class sees it: a representative measured again
    // beside its class's confirmations takes that measurement at those sizes
    // (analyze/representative_recheck.hpp). The identical-link cells compare these.
    std::map<std::uint64_t, double> class_points;
    std::vector<std::uint64_t> rechecked_sizes;  // the window sizes class_points took from the recheck
    // In the window, the sizes where the record measured its link twice
    // (analyze/representative_recheck.hpp: same_link_repeats).
    std::vector<SameLinkRepeat> repeats;
    // The size where class_points is bytes over the mean time of the link's
    // two measurements of its class's second pass (run/second_pass.hpp); 0: none.
    std::uint64_t second_pass_bytes = 0;
    // A record of host memory: the host read probe's mean rate around it
    // (context.host_read_gbps, analyze/host_read.hpp); nullopt otherwise.
    std::optional<double> host_read_gbps;
    CurveMetrics metrics;
};

struct Cell {
    std::string table;      // affinity|anisotropy|identical_links|peer_effect
    std::string link;       // cpu-gpu|gpu-gpu
    std::string host_alloc, direction, locality, peer;  // "" = not part of this cell
    std::string key;
    std::string verdict;    // "true" | "false" | "n/a" | "no-data"
    std::optional<double> effect;   // signed relative difference (see docs/analysis.md)
    nlohmann::json evidence = nlohmann::json::object();
};

struct Anomaly {
    std::string kind;       // remote-faster-than-local | identical-links-differ | identical-link-outlier |
                            // below-half-bottleneck | pageable-far-below-pinned | peer-slower-than-staging
    std::string text;
    std::vector<std::string> series;
};

struct Efficiency {
    std::string key;
    double large_gbps = 0;
    double limit_gbps = 0;
    double fraction = 0;
    std::string link;       // the bottleneck, e.g. "PCIe 3.0 x16"
};

struct Analysis {
    VerdictRule rule;
    std::vector<std::string> inputs;
    std::vector<Series> series;
    std::vector<Cell> cells;
    std::vector<Efficiency> efficiency;
    std::vector<Anomaly> anomalies;
    std::vector<std::string> notes;   // what could not be concluded and why
};

struct NamedResults {
    std::string name;
    ResultsFile file;
};

// Throws std::invalid_argument for a rule that makes no sense.
void validate(const VerdictRule& rule);

// The series of all files (each resolved against its own file's topology).
std::vector<Series> build_series(const std::vector<NamedResults>& files, const VerdictRule& rule,
                                 std::vector<std::string>& notes);
// The 28 cells (the study's 24 plus write-combined host memory).
std::vector<Cell> study_cells(const std::vector<Series>& series, const VerdictRule& rule);
std::vector<Anomaly> find_anomalies(const std::vector<Series>& series, const std::vector<Cell>& cells,
                                    const VerdictRule& rule);

Analysis analyze_results(const std::vector<NamedResults>& files, const VerdictRule& rule = {});

nlohmann::json analysis_to_json(const Analysis& a);
// A cell's "decided by" in words: its evidence's reason, else its comparison;
// an identical-links cell within one link's repeat (within_repeat) leads with
// that ("not told apart: the links spread +27.8%, no more than KEY moved
// between two of its measurements (-30.2%); ...").
std::string cell_reason(const nlohmann::json& evidence);
std::string format_analysis_markdown(const Analysis& a);
std::string format_analysis_text(const Analysis& a);

}  // namespace hwcomm::analyze
