// Deeply nested JSON (issue 16: a few hundred thousand arrays overflowed the
// stack) is refused with one line; real files parse as before.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <fstream>

#include "io/results_file.hpp"
#include "core/error.hpp"
#include "core/json_parse.hpp"
#include "core/results.hpp"
#include "discover/test_support.hpp"

using namespace hwcomm;

namespace {

std::string nested(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const UsageError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(JsonDepth, ShallowDocumentsParse) {
    EXPECT_EQ(parse_json_text(nested(kMaxJsonDepth), "x").dump().size(), 2u * kMaxJsonDepth);
    EXPECT_EQ(parse_json_text("{\"a\": [1, {\"b\": 2}]}", "x")["a"][1]["b"], 2);
}

TEST(JsonDepth, DeepNestingIsAOneLineUsageError) {
    EXPECT_EQ(error_of([] { parse_json_text(nested(kMaxJsonDepth + 1), "f.json"); }),
              "f.json nests JSON deeper than 128 levels");
    EXPECT_EQ(error_of([] { parse_json_text(nested(300000), "f.json"); }), "f.json nests JSON deeper than 128 levels");
    const std::string bad = error_of([] { parse_json_text("{\"a\": ", "f.json"); });
    EXPECT_EQ(bad.find("f.json is not valid JSON ("), 0u) << bad;
}

TEST(JsonDepth, ResultsFileWithDeepNestingIsRefused) {
    test::TempDir dir;
    const std::string path =
        dir.file("deep.json", "{\"schema\": \"hwcomm-results\", \"meta\": " + nested(300000) + "}");
    EXPECT_EQ(error_of([&] { load_results_file(path); }), path + " nests JSON deeper than 128 levels");
}

TEST(JsonDepth, NamedPipeIsRefusedNotWaitedOn) {
    test::TempDir dir;
    const std::string fifo = dir.path() + "/r.json";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_EQ(error_of([&] { load_results_file(fifo); }),
              "cannot read results file " + fifo + ": not a regular file (a pipe, socket or device)");
}
