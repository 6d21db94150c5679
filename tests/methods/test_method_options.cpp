// What methods declare once: option values checked against their specs, the
// size policy applied to the run's sweep.
#include <gtest/gtest.h>

#include "methods/characterizer.hpp"
#include "methods/method_options.hpp"
#include "support/test_catalog.hpp"

using namespace hwcomm;

TEST(MethodOptions, ValuesAreCheckedAgainstTheirSpec) {
    const OptionSpec stride{"stride", OptionType::Int, "1", "elements between loads", {}};
    EXPECT_EQ(check_option_value(stride, "128"), "");
    EXPECT_EQ(check_option_value(stride, "12x"), "--stride is not an integer: '12x'");
    EXPECT_EQ(check_option_value(stride, "-1"), "--stride must not be negative");
    EXPECT_EQ(check_option_value(stride, ""), "--stride needs a value");
    EXPECT_NE(check_option_value(stride, "99999999999999999999999"), "");
    const OptionSpec cache{"cache", OptionType::String, "drop", "page cache", {"drop", "keep"}};
    EXPECT_EQ(check_option_value(cache, "keep"), "");
    EXPECT_EQ(check_option_value(cache, "warm"), "--cache must be one of drop|keep, not 'warm'");
    OptionValues v;
    v.set("stride", "64");
    EXPECT_EQ(v.int_or("stride", 1), 64);
    EXPECT_EQ(v.int_or("warps", 4), 4);
    EXPECT_FALSE(v.flag("smt"));
    v.set("smt", "true");
    EXPECT_TRUE(v.flag("smt"));
}

TEST(MethodOptions, SizePolicyRoundsClipsAndDeduplicates) {
    const std::vector<std::uint64_t> sweep{1, 2, 4, 1024, 4096, 1 << 20, 1ull << 30};
    SizePolicy direct{4096, 4096, 256u << 20, 0};  // O_DIRECT-like
    EXPECT_EQ(direct.apply(sweep), (std::vector<std::uint64_t>{4096, 1 << 20}));
    EXPECT_EQ(SizePolicy{}.apply(sweep), sweep);
    SizePolicy dense{1, 1024, 4096, 2};  // two points per octave between 1 KiB and 4 KiB
    EXPECT_EQ(dense.apply({1024, 4096}), (std::vector<std::uint64_t>{1024, 1448, 2048, 2896, 4096}));
    SizePolicy sparse{1, 4096, 64u << 20, 0.5};  // priority's: every 2nd octave from 4 KiB to 64 MiB
    EXPECT_EQ(sparse.apply({1, 1ull << 30}).size(), 8u);
    EXPECT_EQ(sparse.apply({1, 1ull << 30}).front(), 4096u);
    EXPECT_EQ(sparse.apply({1, 1ull << 30}).back(), 64u << 20);
}

TEST(MethodOptions, TheRegistryRefusesTwoMethodsDeclaringOneOptionDifferently) {
    struct M : Characterizer {
        M(std::string n, std::string def) : n_(std::move(n)), def_(std::move(def)) {}
        std::string name() const override { return n_; }
        std::string description() const override { return "test"; }
        std::vector<VertexKind> src_kinds() const override { return {}; }
        std::vector<VertexKind> dst_kinds() const override { return {}; }
        Applicability applicable(const Graph&, const Vertex&, const Vertex&) const override { return Applicability::no("test"); }
        std::vector<ParamSet> parameter_sets(const Graph&, const Vertex&, const Vertex&, const MethodOptions&) const override {
            return {};
        }
        std::vector<OptionSpec> options() const override { return {{"stride", OptionType::Int, def_, "doc", {}}}; }
        std::unique_ptr<TransferSession> prepare(const Graph&, const Vertex&, const Vertex&, const ParamSet&, std::size_t,
                                                 const MethodOptions&) const override {
            return nullptr;
        }
        std::string n_, def_;
    };
    Registry r(test::catalog_with({"a", "b", "c"}));
    r.add(std::make_unique<M>("a", "1"));
    r.add(std::make_unique<M>("b", "1"));  // the same declaration: shared
    EXPECT_EQ(r.option_specs().size(), 1u);
    EXPECT_THROW(r.add(std::make_unique<M>("c", "2")), std::invalid_argument);
}
