// --under-load in the engine and the options (no GPU): a method that cannot
// carry background lanes becomes an error record naming why; the SPECs travel
// in meta.options and a malformed stored SPEC is refused on resume.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "fake_method.hpp"
#include "run/engine.hpp"
#include "run/run_options.hpp"

using namespace hwcomm;

namespace {

Graph with_a_gpu() {
    Graph g = test::three_nodes();
    Vertex gpu{.id = "gpu0", .kind = VertexKind::Gpu};
    gpu.gpu = GpuInfo{.cuda_ordinal = 0};
    g.add_vertex(gpu);
    return g;
}

}  // namespace

TEST(UnderLoadEngine, AMethodWithoutLanesUnderLoadIsOneErrorRecord) {
    const Graph g = with_a_gpu();
    test::FakeMethod m("fake");
    PlannedRecord p{&m, g.find("numa0"), g.find("numa1"), {{"mode", "a"}}, "fake|numa0|numa1|a"};
    RunOptions o;
    o.sizes = {4096};
    o.method.under_load = {parse_load_spec("memcpy-h2d numa0->gpu0")};
    o.method.load_routes = resolve_load_specs(g, o.method.under_load);
    const Record r = *measure_record(g, p, o);
    EXPECT_EQ(r.status, "error");
    EXPECT_NE(r.error.find("cannot run under load"), std::string::npos) << r.error;
    EXPECT_TRUE(r.points.empty());
    ASSERT_TRUE(r.context.contains("under_load"));
    EXPECT_EQ(r.context["under_load"]["lanes"].get<int>(), 1);
}

TEST(UnderLoadEngine, SpecsRoundTripThroughMetaOptionsAndBadOnesAreRefused) {
    RunOptions o;
    o.sizes = {4096};
    o.method.under_load = {parse_load_spec("memcpy-h2d numa0->gpu0"), parse_load_spec("all-to-host")};
    nlohmann::json j = run_options_to_json(o);
    EXPECT_EQ(run_options_from_json(j).method.under_load, o.method.under_load);
    j.erase("under_load");  // files written before --under-load
    EXPECT_TRUE(run_options_from_json(j).method.under_load.empty());
    j["under_load"] = {"memcpy-h2d numa0"};
    EXPECT_THROW(run_options_from_json(j), UsageError);
    j["under_load"] = 7;
    EXPECT_THROW(run_options_from_json(j), UsageError);
}
