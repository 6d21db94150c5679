#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "core/graph.hpp"
#include "platform/host_info.hpp"
#include "run/results_io.hpp"

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
    save_results(t.path, new_results(Graph{}, {"hwcomm", "run"}, o));
    const ResultsFile f = load_for_resume(t.path, read_host_info().hostname);
    const RunOptions back = run_options_from_json(f.meta.at("options"));
    EXPECT_EQ(back.sizes, o.sizes);
    EXPECT_EQ(back.filters, o.filters);
    EXPECT_DOUBLE_EQ(back.stopping.time_budget_s, o.stopping.time_budget_s);
    EXPECT_EQ(f.meta.at("units").at("bandwidth"), "GB/s = 1e9 bytes/s");
    EXPECT_EQ(f.meta.at("tool_version"), HWCOMM_VERSION);
}

TEST(ResumeChecks, CorruptForeignOrMissingFilesAreUsageErrorsAndUntouched) {
    TempFile t;
    const std::string host = read_host_info().hostname;
    t.write("{\"schema\": \"hwcomm-results\", \"schema_version\": 1, \"meta\": {");  // truncated
    EXPECT_THROW(load_for_resume(t.path, host), UsageError);
    EXPECT_EQ(t.read(), "{\"schema\": \"hwcomm-results\", \"schema_version\": 1, \"meta\": {");

    save_results(t.path, new_results(Graph{}, {}, default_run_options()));
    const std::string ours = t.read();
    EXPECT_THROW(load_for_resume(t.path, host + "-elsewhere"), UsageError);
    EXPECT_EQ(t.read(), ours);

    t.write("{\"schema\": \"hwcomm-topology\", \"schema_version\": 1}");
    EXPECT_THROW(load_for_resume(t.path, host), UsageError);
    EXPECT_THROW(load_for_resume("/nonexistent/hwcomm.json", host), UsageError);
}
