// A method added as an exercise: a fake host-to-GPU copy with its own row,
// measured by the engine into a results file, appears in list, summary,
// analyze (its study series), model fit, export and the report -- with no
// edit anywhere but this test. The file carries the row (meta.methods), so
// readers built without the method still know what its records mean.
#include <unistd.h>

#include <filesystem>

#include <gtest/gtest.h>

#include "analyze/study.hpp"
#include "analyze/summary.hpp"
#include "catalog/method_names.hpp"
#include "catalog/method_params.hpp"
#include "catalog/row_json.hpp"
#include "cli/list_json.hpp"
#include "core/error.hpp"
#include "core/graph_json.hpp"
#include "io/results_file.hpp"
#include "io/tidy_export.hpp"
#include "model/fit.hpp"
#include "report/html/report_model.hpp"
#include "run/engine.hpp"

namespace hwcomm {
namespace {

constexpr const char* kName = "exercise-h2d";

// A copy from a NUMA node's host memory to a GPU: 1 GB/s pinned, 0.5 GB/s pageable.
class ExerciseSession final : public TransferSession {
public:
    explicit ExerciseSession(double gbps) : gbps_(gbps) {}
    void warmup(std::size_t, const std::string&) override {}
    Sample measure(std::size_t bytes, const std::string&) override {
        Sample s;
        s.bytes_per_rep = static_cast<double>(bytes);
        s.seconds = static_cast<double>(bytes) / (gbps_ * 1e9);
        return s;
    }
    std::string verify(std::size_t, const std::string&) override { return ""; }
    std::size_t max_bytes() const override { return std::size_t{1} << 30; }

private:
    double gbps_;
};

class ExerciseMethod final : public Characterizer {
public:
    std::string name() const override { return kName; }
    std::string description() const override { return "exercise: a host-to-GPU copy of a test"; }
    std::vector<VertexKind> src_kinds() const override { return {VertexKind::NumaNode}; }
    std::vector<VertexKind> dst_kinds() const override { return {VertexKind::Gpu}; }
    Applicability applicable(const Graph&, const Vertex& s, const Vertex& d) const override {
        return s.kind == VertexKind::NumaNode && d.kind == VertexKind::Gpu ? Applicability::yes()
                                                                            : Applicability::no("host to GPU only");
    }
    std::vector<ParamSet> parameter_sets(const Graph&, const Vertex&, const Vertex&, const MethodOptions&) const override {
        return {{{HostMem::key, HostMem::Pinned}, {NumaParam::key, "0"}},
                {{HostMem::key, HostMem::Pageable}, {NumaParam::key, "0"}}};
    }
    std::unique_ptr<TransferSession> prepare(const Graph&, const Vertex&, const Vertex&, const ParamSet& params,
                                             std::size_t, const MethodOptions&) const override {
        return std::make_unique<ExerciseSession>(params.at(HostMem::key) == HostMem::Pinned ? 1.0 : 0.5);
    }
};

// Its row: a copy-engine copy feeding the study's host-to-device series and
// sharing the report's h2d charts.
MethodRow exercise_row() {
    MethodRow r{.name = kName, .family = MethodFamily::CopyEngine};
    r.src_kinds = {VertexKind::NumaNode};
    r.dst_kinds = {VertexKind::Gpu};
    r.params = {{HostMem::key, {HostMem::Pinned, HostMem::Pageable}}, {NumaParam::key, {}}};
    r.solo = {SoloRule{.keep = {HostMem::key}}};
    r.study = StudySeries::HostToDevice;
    r.report_group = "h2d";
    return r;
}

Graph numa_and_gpu() {
    Graph g;
    Vertex numa;
    numa.id = "numa0", numa.kind = VertexKind::NumaNode, numa.os_index = 0;
    g.add_vertex(numa);
    Vertex gpu;
    gpu.id = "gpu0", gpu.kind = VertexKind::Gpu;
    g.add_vertex(gpu);
    return g;
}

// The exercise method measured and written to a file, then read back as any reader would.
ResultsFile measured_file(const Graph& g, const Registry& registry) {
    RunOptions o;
    o.sizes = {4096, 1 << 20, 64 << 20};
    o.stopping.min_samples = 3;
    ResultsFile results;
    results.topology = graph_to_json(g);
    run_plan(g, build_plan(g, registry, Filters{}, o.method), o, results, {});
    keep_method_rows(results, registry.catalog());
    const auto path = std::filesystem::temp_directory_path() / ("hwcomm-exercise-" + std::to_string(getpid()) + ".json");
    save_results(path.string(), results);
    ResultsFile back = load_results_file(path.string());
    std::filesystem::remove(path);
    return back;
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

TEST(ExerciseMethod, AppearsInEveryConsumerThroughItsRow) {
    Registry registry(builtin_catalog().with({exercise_row()}));
    registry.add(std::make_unique<ExerciseMethod>());
    const Graph g = numa_and_gpu();
    const ResultsFile file = measured_file(g, registry);
    ASSERT_EQ(file.records.size(), 2u);
    ASSERT_EQ(file.meta.at("methods").size(), 1u);
    // A reader without the method takes its row from the file.
    ASSERT_EQ(builtin_catalog().find(kName), nullptr);
    const MethodCatalog read = catalog_for(file.meta);
    ASSERT_NE(read.find(kName), nullptr);
    EXPECT_EQ(read.find(kName)->study, StudySeries::HostToDevice);

    // list: the method, its two parameter sets on numa0 -> gpu0, and its row.
    const auto listed = cli::list_as_json(g, registry, false);
    ASSERT_EQ(listed["methods"].size(), 1u);
    EXPECT_EQ(listed["methods"][0]["applies_to"].size(), 1u);
    EXPECT_EQ(listed["methods"][0]["applies_to"][0]["param_sets"].size(), 2u);
    EXPECT_EQ(listed["methods"][0]["row"]["family"], "copy-engine");

    // summary: one row per record, pinned twice as fast as pageable at 64 MiB.
    const auto rows = analyze::summarize(file);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(count(analyze::format_summary_table(rows), kName), 2u);
    EXPECT_NEAR(*rows[0].peak_gbps / *rows[1].peak_gbps, 2.0, 1e-9);

    // analyze: both records are host-to-device series of the study, by host allocation.
    const analyze::Analysis a = analyze::analyze_results({{"exercise.json", file}});
    std::size_t series = 0;
    for (const auto& s : a.series)
        if (s.method == kName) {
            ++series;
            EXPECT_EQ(s.link, "cpu-gpu");
            EXPECT_EQ(s.direction, "h2d");
        }
    EXPECT_EQ(series, 2u);

    // model fit: one curve per record.
    const model::Model m = model::fit_model({{"exercise.json", file}});
    std::size_t curves = 0;
    for (const auto& c : m.curves) curves += c.method == kName;
    EXPECT_EQ(curves, 2u);

    // export: one point row per size of each record.
    const std::string csv = export_tidy({{"exercise.json", &file}}, ExportFormat::Csv);
    EXPECT_EQ(count(csv, std::string(",") + kName + ","), 6u);

    // report: both curves, on the h2d chart of gpu0 (the row's report group).
    const auto report = report_html::report_model({{"exercise.json", file, g}}, {});
    ASSERT_EQ(report["curves"].size(), 2u);
    bool grouped = false;
    for (const auto& group : report["groups"]) grouped = grouped || (group["title"] == "h2d: host \xE2\x86\x92 gpu0" &&
                                                                     group["curves"].size() == 2u);
    EXPECT_TRUE(grouped) << report["groups"].dump();
}

TEST(ExerciseMethod, AFileWhoseRowIsMalformedIsRefusedWhenRead) {
    ResultsFile f;
    f.meta["methods"] = nlohmann::json::array({row_to_json(exercise_row())});
    f.meta["methods"][0]["family"] = "teleport";
    EXPECT_THROW(catalog_for(f.meta), UsageError);
    f.meta["methods"][0]["family"] = "copy-engine";
    f.meta["methods"][0]["working_set_buffers"] = -1;
    EXPECT_THROW(catalog_for(f.meta), UsageError);
    f.meta["methods"] = nlohmann::json::array({row_to_json(exercise_row()), row_to_json(exercise_row())});
    EXPECT_THROW(catalog_for(f.meta), UsageError);
    f.meta["methods"] = "all";
    EXPECT_THROW(catalog_for(f.meta), UsageError);
    // A row for a built-in name is left to the built-in catalog (older and newer files read alike).
    MethodRow odd = exercise_row();
    odd.name = method_name::kCpuRead;
    f.meta["methods"] = nlohmann::json::array({row_to_json(odd)});
    EXPECT_EQ(catalog_for(f.meta).find(method_name::kCpuRead)->family, MethodFamily::CpuMemory);
}

TEST(ExerciseMethod, ARowSurvivesJsonUnchanged) {
    for (const MethodRow& row : builtin_catalog().rows())
        EXPECT_EQ(row_to_json(row_from_json(row_to_json(row))), row_to_json(row)) << row.name;
}

}  // namespace
}  // namespace hwcomm
