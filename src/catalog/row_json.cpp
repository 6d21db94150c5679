#include "catalog/row_json.hpp"

#include <algorithm>
#include <iterator>

#include "core/error.hpp"

namespace hwcomm {

namespace {

using json = nlohmann::json;

constexpr MethodFamily kFamilies[] = {
    MethodFamily::CpuMemory, MethodFamily::Disk,      MethodFamily::CopyEngine, MethodFamily::SmCopy, MethodFamily::TmaCopy,
    MethodFamily::Duplex,    MethodFamily::Concurrency, MethodFamily::ZeroCopy, MethodFamily::UnifiedMemory,
    MethodFamily::Load,      MethodFamily::GpuMemory, MethodFamily::Mpi,        MethodFamily::TestFault};
constexpr MethodBuild kBuilds[] = {MethodBuild::Always, MethodBuild::Cuda, MethodBuild::Mpi, MethodBuild::CudaTestOnly};
constexpr DuplexConvention kConventions[] = {DuplexConvention::None, DuplexConvention::Sum,
                                             DuplexConvention::OneDirectionUnderOpposite};
constexpr HeadlineKind kHeadlines[] = {HeadlineKind::PeakBandwidth, HeadlineKind::BestOverAxes,
                                       HeadlineKind::MetricAtLargest, HeadlineKind::MetricMedian,
                                       HeadlineKind::TimeAtSmallest};
constexpr MethodView kViews[] = {MethodView::Curve,           MethodView::UnderLoadTable, MethodView::PriorityTable,
                                 MethodView::GpumemOccupancy, MethodView::GpumemStride,   MethodView::GpumemTimeline,
                                 MethodView::GpumemLatency,   MethodView::GpumemLoadedLatency, MethodView::CpuLatency,
                                 MethodView::CpuLoadedLatency, MethodView::CpuMix};
constexpr StudySeries kSeries[] = {StudySeries::None,     StudySeries::HostToDevice, StudySeries::DeviceToHost,
                                   StudySeries::PeerCopy, StudySeries::DeviceCopy,   StudySeries::HostStaging};
constexpr std::pair<LaneDirection, const char*> kDirections[] = {{LaneDirection::Any, "any"},
                                                                 {LaneDirection::HostToDevice, "host-to-device"},
                                                                 {LaneDirection::DeviceToHost, "device-to-host"},
                                                                 {LaneDirection::DeviceToDevice, "device-to-device"}};
constexpr std::pair<ImportShape, const char*> kShapes[] = {
    {ImportShape::NumaGpu, "numa-gpu"},         {ImportShape::GpuNuma, "gpu-numa"},
    {ImportShape::NumaNuma, "numa-numa"},       {ImportShape::NumaGpuGpu, "numa-gpu-gpu"},
    {ImportShape::GpuGpu, "gpu-gpu"},           {ImportShape::HostToOneGpu, "host-to-one-gpu"},
    {ImportShape::OneGpuToHost, "one-gpu-to-host"}, {ImportShape::TwoGpus, "two-gpus"}};

const char* to_string(LaneDirection d) {
    for (const auto& [v, s] : kDirections)
        if (v == d) return s;
    return "?";
}
const char* to_string(ImportShape shape) {
    for (const auto& [v, s] : kShapes)
        if (v == shape) return s;
    return "?";
}

std::string text(const json& j, const char* field) {
    if (!j.contains(field) || !j.at(field).is_string()) throw UsageError(std::string(field) + " must be a string");
    return j.at(field).get<std::string>();
}

template <class E, std::size_t N>
E enum_field(const json& j, const char* field, const E (&all)[N]) {
    const std::string s = text(j, field);
    for (E e : all)
        if (s == to_string(e)) return e;
    throw UsageError(std::string(field) + ": unknown value '" + s + "'");
}

template <class E, std::size_t N>
E pair_field(const json& j, const char* field, const std::pair<E, const char*> (&all)[N]) {
    const std::string s = text(j, field);
    for (const auto& [e, name] : all)
        if (s == name) return e;
    throw UsageError(std::string(field) + ": unknown value '" + s + "'");
}

const json& array_field(const json& j, const char* field) {
    if (!j.contains(field) || !j.at(field).is_array()) throw UsageError(std::string(field) + " must be an array");
    return j.at(field);
}

RowParams params_field(const json& j, const char* field) {
    if (!j.contains(field) || !j.at(field).is_object()) throw UsageError(std::string(field) + " must be an object");
    RowParams out;
    for (const auto& [k, v] : j.at(field).items()) {
        if (!v.is_string()) throw UsageError(std::string(field) + "." + k + " must be a string");
        out[k] = v.get<std::string>();
    }
    return out;
}

std::vector<std::string> strings_field(const json& j, const char* field) {
    std::vector<std::string> out;
    for (const json& v : array_field(j, field)) {
        if (!v.is_string()) throw UsageError(std::string(field) + " must hold strings");
        out.push_back(v.get<std::string>());
    }
    return out;
}

std::vector<VertexKind> kinds_field(const json& j, const char* field) {
    std::vector<VertexKind> out;
    for (const std::string& s : strings_field(j, field)) {
        const auto kind = vertex_kind_from_string(s);
        if (!kind) throw UsageError(std::string(field) + ": unknown vertex kind '" + s + "'");
        out.push_back(*kind);
    }
    return out;
}

json kinds_json(const std::vector<VertexKind>& kinds) {
    json out = json::array();
    for (VertexKind k : kinds) out.push_back(to_string(k));
    return out;
}

}  // namespace

json row_to_json(const MethodRow& r) {
    json params = json::array(), axes = json::array(), solo = json::array(), imports = json::array();
    for (const ParamDecl& p : r.params) params.push_back({{"key", p.key}, {"values", p.values}});
    for (const AxisDecl& a : r.axes) axes.push_back({{"name", a.name}, {"unit", a.unit}});
    for (const SoloRule& s : r.solo)
        solo.push_back({{"direction", to_string(s.direction)}, {"when", s.when}, {"method", s.method},
                        {"params", s.params}, {"keep", s.keep}, {"defaults", s.defaults}});
    for (const ImportName& i : r.import_names)
        imports.push_back({{"benchmark", i.benchmark}, {"shape", to_string(i.shape)}, {"params", i.params}});
    return {{"name", r.name},
            {"family", to_string(r.family)},
            {"build", to_string(r.build)},
            {"src_kinds", kinds_json(r.src_kinds)},
            {"dst_kinds", kinds_json(r.dst_kinds)},
            {"params", params},
            {"axes", axes},
            {"duplex", {{"convention", to_string(r.duplex.convention)}, {"when_key", r.duplex.when_key},
                        {"when_value", r.duplex.when_value}}},
            {"solo", solo},
            {"headline", {{"kind", to_string(r.headline.kind)}, {"metric", r.headline.metric}, {"unit", r.headline.unit}}},
            {"view", to_string(r.view)},
            {"study", to_string(r.study)},
            {"import_names", imports},
            {"report_group", r.report_group},
            {"working_set_buffers", r.working_set_buffers}};
}

MethodRow row_from_json(const json& j) {
    if (!j.is_object()) throw UsageError("a method row must be an object");
    MethodRow r{.name = text(j, "name"), .family = MethodFamily::CpuMemory};
    try {
        r.family = enum_field(j, "family", kFamilies);
        r.build = enum_field(j, "build", kBuilds);
        r.src_kinds = kinds_field(j, "src_kinds");
        r.dst_kinds = kinds_field(j, "dst_kinds");
        for (const json& p : array_field(j, "params")) r.params.push_back({text(p, "key"), strings_field(p, "values")});
        for (const json& a : array_field(j, "axes")) r.axes.push_back({text(a, "name"), text(a, "unit")});
        if (!j.contains("duplex") || !j.at("duplex").is_object()) throw UsageError("duplex must be an object");
        const json& d = j.at("duplex");
        r.duplex = {enum_field(d, "convention", kConventions), text(d, "when_key"), text(d, "when_value")};
        for (const json& s : array_field(j, "solo"))
            r.solo.push_back({pair_field(s, "direction", kDirections), params_field(s, "when"), text(s, "method"),
                              params_field(s, "params"), strings_field(s, "keep"), params_field(s, "defaults")});
        if (!j.contains("headline") || !j.at("headline").is_object()) throw UsageError("headline must be an object");
        const json& h = j.at("headline");
        r.headline = {enum_field(h, "kind", kHeadlines), text(h, "metric"), text(h, "unit")};
        r.view = enum_field(j, "view", kViews);
        r.study = enum_field(j, "study", kSeries);
        for (const json& i : array_field(j, "import_names"))
            r.import_names.push_back({text(i, "benchmark"), pair_field(i, "shape", kShapes), params_field(i, "params")});
        r.report_group = text(j, "report_group");
        const json& buffers = j.contains("working_set_buffers") ? j.at("working_set_buffers") : json();
        if (!buffers.is_number_unsigned() || buffers.get<std::uint64_t>() < 1 || buffers.get<std::uint64_t>() > 16)
            throw UsageError("working_set_buffers must be an integer in [1, 16]");
        r.working_set_buffers = buffers.get<unsigned>();
    } catch (const UsageError& e) {
        throw UsageError("method row " + r.name + ": " + e.what());
    }
    return r;
}

namespace {

// Rows of meta.methods that the built-in catalog lacks, added to `unknown`.
void add_unknown_rows(const json& meta, std::vector<MethodRow>& unknown, std::size_t first_of_this_file) {
    const MethodCatalog& builtin = builtin_catalog();
    if (!meta.is_object() || !meta.contains("methods")) return;
    const json& rows = meta.at("methods");
    if (!rows.is_array()) throw UsageError("meta.methods must be an array");
    for (const json& j : rows) {
        if (j.is_object() && j.contains("name") && j.at("name").is_string() &&
            builtin.find(j.at("name").get<std::string>()))
            continue;
        MethodRow r = row_from_json(j);
        bool seen = false;
        for (std::size_t i = 0; i < unknown.size(); ++i) {
            if (unknown[i].name != r.name) continue;
            if (i >= first_of_this_file) throw UsageError("meta.methods names " + r.name + " twice");
            if (row_to_json(unknown[i]) != row_to_json(r))
                throw UsageError("two files describe method " + r.name + " differently (meta.methods)");
            seen = true;
        }
        if (!seen) unknown.push_back(std::move(r));
    }
}

}  // namespace

MethodCatalog catalog_for(const json& meta) { return catalog_for(std::vector<const json*>{&meta}); }

MethodCatalog catalog_for(const std::vector<const json*>& metas) {
    std::vector<MethodRow> unknown;
    for (const json* meta : metas) add_unknown_rows(*meta, unknown, unknown.size());
    if (unknown.empty()) return builtin_catalog();
    return builtin_catalog().with(std::move(unknown));
}

void keep_method_rows(ResultsFile& file, const MethodCatalog& catalog) {
    std::vector<std::string> names;
    for (const Record& r : file.records)
        if (std::find(names.begin(), names.end(), r.method) == names.end()) names.push_back(r.method);
    json rows = rows_json(catalog, names);
    if (file.meta.contains("methods") && file.meta["methods"].is_array())
        for (const json& old : file.meta["methods"])
            if (old.is_object() && old.contains("name") && old["name"].is_string() &&
                !catalog.find(old["name"].get<std::string>()))
                rows.push_back(old);
    file.meta["methods"] = std::move(rows);
}

json rows_json(const MethodCatalog& catalog, const std::vector<std::string>& names) {
    json out = json::array();
    for (const MethodRow& r : catalog.rows())
        if (std::find(names.begin(), names.end(), r.name) != names.end()) out.push_back(row_to_json(r));
    return out;
}

}  // namespace hwcomm
