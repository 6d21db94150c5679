#pragma once
// The study's model M(C, U) -> P as fitted from results files: one curve per
// measured (method, src, dst, params), the machine's graph to extrapolate to
// pairs never measured, and the fitted capacity of edges that concurrent
// transfers shared. Written as versioned JSON (docs/model.md).
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/curve_model.hpp"

namespace hwcomm::model {

inline constexpr const char* kModelSchema = "hwcomm-model";
inline constexpr const char* kModelVersion = "1.0";

// A results file the model came from.
struct SourceFile {
    std::string path;
    std::string revision;                 // meta.git_revision of the build that measured it
    std::string date_utc, host;
    nlohmann::json fingerprint;           // meta.fingerprint (null for files older than schema 2)
    std::size_t records = 0;              // records fitted from it
};

struct CurveModel {
    std::string key, method, src, dst;
    std::map<std::string, std::string> params;
    std::size_t source = 0;               // index into Model::sources
    std::string provenance;               // "measured" | "imported"
    std::string measured_as;              // "full", "confirmed" (a few sizes: the representative's shape), "promoted"; "" unsaid
    std::size_t lanes = 1;                // measured lanes (concurrency records: > 1)
    std::size_t load_lanes = 0;           // background lanes (role "load": measured under load U)
    bool single() const { return lanes == 1 && load_lanes == 0; }  // a transfer alone
    CurveFit fit;
    double limit_gbps = 0;                // theoretical bottleneck of the path (0: none stated)
    std::string limit_what;               // "NVLink 4.0 x18", "staged: PCIe 5.0 x16"
    std::string bottleneck;               // the bottleneck edge "a->b" as crossed
};

// Concurrent transfers that crossed one edge in one direction: the aggregate
// rate the edge carried for them (the plateau of the concurrency record).
struct SharedEdgeFit {
    std::string edge;                     // "pci0000:00->numa0"
    std::string what;                     // "Membership link", "NVLink 4.0 x18"
    std::string lane_method;              // the lanes' method and mode, "all-to-host mode=ce"
    double stated_gbps = 0;               // 0: no source states a rate
    double capacity_gbps = 0;             // fitted: what the lanes moved together
    double efficiency = 0;                // capacity / stated (0 when no rate is stated)
    std::vector<std::string> records;     // concurrency records it rests on
    std::size_t lanes = 0;
};

struct Model {
    std::vector<SourceFile> sources;
    nlohmann::json topology = nlohmann::json::object();  // graph of the first source (graph_to_json)
    std::vector<CurveModel> curves;
    std::vector<SharedEdgeFit> shared_edges;
    std::vector<std::string> notes;       // what was left out and why

    const CurveModel* find(const std::string& key) const;
};

nlohmann::json model_to_json(const Model& model);
// Throws UsageError (one line) for anything that is not a model this build reads.
Model model_from_json(const nlohmann::json& j);

// Reads a model file; UsageError naming the path for an unreadable or bad file.
Model load_model(const std::string& path);
// Writes atomically; an existing file is replaced only when `force`.
void save_model(const std::string& path, const Model& model, bool force);

}  // namespace hwcomm::model
