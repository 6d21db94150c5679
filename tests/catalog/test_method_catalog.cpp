// The method catalog against the methods this build registers: one row per
// method and one method per row, and the facts both state agree.
#include <set>
#include <stdexcept>

#include <gtest/gtest.h>

#include "catalog/method_catalog.hpp"
#include "catalog/method_names.hpp"
#include "catalog/method_params.hpp"
#include "methods/built_methods.hpp"
#include "support/test_catalog.hpp"

namespace hwcomm {
namespace {

#ifdef HWCOMM_HAVE_CUDA
constexpr bool kCuda = true;
#else
constexpr bool kCuda = false;
#endif

bool built_here(const MethodRow& row, bool with_faults) {
    switch (row.build) {
    case MethodBuild::Always: return true;
    case MethodBuild::Cuda: return kCuda;
    case MethodBuild::CudaTestOnly: return kCuda && with_faults;
    case MethodBuild::Mpi: return false;  // made per pair of ranks by run/cluster, not registered
    }
    return false;
}

std::set<std::string> registered_names(bool with_faults) {
    Registry registry;
    register_built_methods(registry, with_faults);
    std::set<std::string> names;
    for (const auto& m : registry.all()) names.insert(m->name());
    return names;
}

std::set<std::string> row_names(bool with_faults) {
    std::set<std::string> names;
    for (const MethodRow& r : builtin_catalog().rows())
        if (built_here(r, with_faults)) names.insert(r.name);
    return names;
}

TEST(MethodCatalog, EveryRowOfThisBuildHasAMethodAndEveryMethodARow) {
    for (bool faults : {false, true}) {
        const auto methods = registered_names(faults);
        EXPECT_EQ(methods, row_names(faults)) << "with test fault methods: " << faults;
        EXPECT_GE(methods.size(), kCuda ? 31u : 4u);
    }
}

TEST(MethodCatalog, RowsStateTheEndpointKindsAndAxesTheMethodsDeclare) {
    Registry registry;
    register_built_methods(registry, true);
    for (const auto& m : registry.all()) {
        const MethodRow& row = registry.row(*m);
        EXPECT_EQ(row.src_kinds, m->src_kinds()) << m->name();
        EXPECT_EQ(row.dst_kinds, m->dst_kinds()) << m->name();
        const auto axes = m->axes();
        ASSERT_EQ(row.axes.size(), axes.size()) << m->name();
        for (std::size_t i = 0; i < axes.size(); ++i) {
            EXPECT_EQ(row.axes[i].name, axes[i].name) << m->name();
            EXPECT_EQ(row.axes[i].unit, axes[i].unit) << m->name();
        }
        // Every parameter the method documents is a key of its row ("x (axis)" documents an axis).
        for (const auto& [key, doc] : m->parameter_docs()) {
            if (key.find(" (axis)") != std::string::npos) continue;
            bool found = false;
            for (const ParamDecl& p : row.params) found = found || p.key == key;
            EXPECT_TRUE(found) << m->name() << " documents " << key << ", its row has no such parameter";
        }
    }
}

// A method that applies nowhere: only its name matters here.
class Idle final : public Characterizer {
public:
    explicit Idle(std::string name) : name_(std::move(name)) {}
    std::string name() const override { return name_; }
    std::string description() const override { return "idle"; }
    std::vector<VertexKind> src_kinds() const override { return {VertexKind::NumaNode}; }
    std::vector<VertexKind> dst_kinds() const override { return {VertexKind::NumaNode}; }
    Applicability applicable(const Graph&, const Vertex&, const Vertex&) const override { return Applicability::no("idle"); }
    std::vector<ParamSet> parameter_sets(const Graph&, const Vertex&, const Vertex&, const MethodOptions&) const override {
        return {};
    }
    std::unique_ptr<TransferSession> prepare(const Graph&, const Vertex&, const Vertex&, const ParamSet&, std::size_t,
                                             const MethodOptions&) const override {
        return nullptr;
    }

private:
    std::string name_;
};

TEST(MethodCatalog, TheRegistryRefusesAMethodWithoutARow) {
    Registry plain;
    EXPECT_THROW(plain.add(std::make_unique<Idle>("no-such-method")), std::invalid_argument);
    Registry extended(test::catalog_with({"no-such-method"}));
    EXPECT_NO_THROW(extended.add(std::make_unique<Idle>("no-such-method")));
    EXPECT_EQ(extended.all().size(), 1u);
}

TEST(MethodCatalog, ANameIsARowOnce) {
    EXPECT_THROW(builtin_catalog().with({test::fake_row(method_name::kCpuRead)}), std::invalid_argument);
    EXPECT_THROW(MethodCatalog({test::fake_row("x"), test::fake_row("x")}), std::invalid_argument);
    EXPECT_THROW(MethodCatalog({test::fake_row("")}), std::invalid_argument);
    const MethodCatalog more = builtin_catalog().with({test::fake_row("x")});
    EXPECT_EQ(more.rows().size(), builtin_catalog().rows().size() + 1);
    EXPECT_EQ(builtin_catalog().find("x"), nullptr);
}

TEST(MethodCatalog, DuplexIsTheRowsRuleAppliedToTheRecordsParams) {
    const MethodCatalog& c = builtin_catalog();
    EXPECT_TRUE(is_duplex(*c.find(method_name::kDuplexD2D), {{Peer::key, Peer::On}}));
    EXPECT_TRUE(is_duplex(*c.find(method_name::kDuplexH2D), {}));
    EXPECT_FALSE(is_duplex(*c.find(method_name::kMemcpyPeer), {{Peer::key, Peer::On}}));
    EXPECT_TRUE(is_duplex(*c.find(method_name::kMpiHost), {{MpiDirection::key, MpiDirection::Bi}}));
    EXPECT_FALSE(is_duplex(*c.find(method_name::kMpiHost), {{MpiDirection::key, MpiDirection::Uni}}));
    EXPECT_EQ(c.find(method_name::kDuplexD2D)->duplex.convention, DuplexConvention::Sum);
}

TEST(MethodCatalog, RowCountsByWhatConsumersAskOfThem) {
    // Counts of rows by what consumers ask of them: a row lost or a field
    // dropped in an edit shows here.
    std::size_t gpumem = 0, import_names = 0, study = 0, mpi = 0;
    std::set<std::string> groups;
    for (const MethodRow& r : builtin_catalog().rows()) {
        gpumem += r.family == MethodFamily::GpuMemory;
        import_names += r.import_names.size();
        study += r.study != StudySeries::None;
        mpi += r.build == MethodBuild::Mpi;
        if (!r.report_group.empty()) groups.insert(r.report_group);
    }
    EXPECT_EQ(gpumem, 6u);  // timeline, occupancy, stride, latency, tma-latency, loaded-latency
    EXPECT_EQ(import_names, 15u);  // Comm|Scope benchmark families hwcomm import maps
    EXPECT_EQ(study, 5u);
    EXPECT_EQ(mpi, 2u);
    EXPECT_EQ(groups, (std::set<std::string>{"d2d", "d2h", "h2d"}));
}

}  // namespace
}  // namespace hwcomm
