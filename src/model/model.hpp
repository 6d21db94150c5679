#pragma once
// The study's model M(C, U) -> P as fitted from results files: one curve per
// measured (method, src, dst, params), the machine's graph to extrapolate to
// pairs never measured, and the fitted capacity of edges that concurrent
// transfers shared. Written as versioned JSON (docs/model.md).
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/capacity_curve.hpp"
#include "model/curve_model.hpp"

namespace hwcomm::model {

inline constexpr const char* kModelSchema = "hwcomm-model";
inline constexpr const char* kModelVersion = "2.0";

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
    std::size_t lanes = 1;                // measured lanes (concurrency records: > 1)
    std::size_t load_lanes = 0;           // background lanes (role "load": measured under load U)
    bool single() const { return lanes == 1 && load_lanes == 0; }  // a transfer alone
    CurveFit fit;
    double limit_gbps = 0;                // theoretical bottleneck of the path (0: none stated)
    std::string limit_what;               // "NVLink 4.0 x18", "staged: PCIe 5.0 x16"
    std::string bottleneck;               // the bottleneck edge "a->b" as crossed
};

// An edge that transfers run together crossed the same way, for one kind of
// transfer (the lanes' single-transfer method, "memcpy-h2d host_mem=pinned";
// a mix of kinds is an entry of its own, "memcpy-h2d ... + sm-copy-h2d ..."):
// what it carried against how many shared it, and the curve through that.
struct SharedEdgeFit {
    std::string edge;                     // "numa0->pci0000:00"
    std::string what;                     // "Membership link", "NVLink 4.0 x18"
    std::string kind;
    double stated_gbps = 0;               // 0: no source states a rate
    std::vector<EdgeObservation> observations;  // one per record, at least one
    CapacityCurve curve;                  // fitted on the observations

    std::vector<std::string> records() const;
};

struct Model {
    std::vector<SourceFile> sources;
    nlohmann::json topology = nlohmann::json::object();  // graph of the first source (graph_to_json)
    std::vector<CurveModel> curves;
    std::vector<SharedEdgeFit> shared_edges;  // by edge, then kind
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
