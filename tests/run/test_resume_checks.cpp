#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "core/graph.hpp"
#include "io/fingerprint.hpp"
#include "run/run_options.hpp"
#include "io/results_meta.hpp"
#include "io/results_file.hpp"

using namespace hwcomm;
namespace fs = std::filesystem;

namespace {

struct TempFile {
    fs::path path = fs::temp_directory_path() / ("hwcomm-resume-" + std::to_string(::getpid()) + ".json");
    ~TempFile() { fs::remove(path); }
    void write(const std::string& s) const { std::ofstream(path) << s; }
    std::string read() const {
        std::ifstream in(path);
        std::stringstream ss;
        ss << in.rdbuf();
        return ss.str();
    }
};

}  // namespace

TEST(ResumeChecks, AcceptsOwnFileWithOptions) {
    TempFile t;
    RunOptions o = default_run_options();
    o.sizes = {1, 2, 4};
    o.filters = {"method=cpu-read"};
    save_results(t.path, new_results(Graph{}, {"hwcomm", "run"}, run_options_to_json(o)));
    const ResultsFile f = load_for_resume(t.path, this_machine_fingerprint(Graph{}));
    const RunOptions back = run_options_from_json(f.meta.at("options"));
    EXPECT_EQ(back.sizes, o.sizes);
    EXPECT_EQ(back.filters, o.filters);
    EXPECT_DOUBLE_EQ(back.stopping.time_budget_s, o.stopping.time_budget_s);
    EXPECT_EQ(f.meta.at("units").at("bandwidth"), "GB/s = 1e9 bytes/s");
    EXPECT_EQ(f.meta.at("tool_version"), HWCOMM_VERSION);
}

TEST(ResumeChecks, CorruptForeignOrMissingFilesAreUsageErrorsAndUntouched) {
    TempFile t;
    const auto here = this_machine_fingerprint(Graph{});
    t.write("{\"schema\": \"hwcomm-results\", \"schema_version\": 1, \"meta\": {");  // truncated
    EXPECT_THROW(load_for_resume(t.path, here), UsageError);
    EXPECT_EQ(t.read(), "{\"schema\": \"hwcomm-results\", \"schema_version\": 1, \"meta\": {");

    save_results(t.path, new_results(Graph{}, {}, run_options_to_json(default_run_options())));
    const std::string ours = t.read();
    auto elsewhere = here;
    elsewhere["cpu_model"] = "another CPU";
    EXPECT_THROW(load_for_resume(t.path, elsewhere), UsageError);
    EXPECT_EQ(t.read(), ours);

    t.write("{\"schema\": \"hwcomm-topology\", \"schema_version\": 1}");
    EXPECT_THROW(load_for_resume(t.path, here), UsageError);
    EXPECT_THROW(load_for_resume("/nonexistent/hwcomm.json", here), UsageError);
}
