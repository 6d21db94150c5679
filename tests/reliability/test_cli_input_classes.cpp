// The classes of issue 25, each on the real binary: every bad file or option
// is one line and exit 2 with nothing written or changed, never a hang, a
// crash, an internal error or a silent overwrite; latin-1 bytes from hwloc
// never reach an output; documented verdicts keep their exit codes.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <functional>

#include "cli/cli_helpers.hpp"

using namespace hwcomm::test;

namespace {

std::string fixture(const std::string& relative) { return std::string(HWCOMM_FIXTURES) + "/" + relative; }

// run_hwcomm with a deadline: a command that blocks on a pipe fails the test instead of hanging it.
Result run_bounded(const Scratch& s, const std::string& args) {
    const auto out = s / ".stdout", err = s / ".stderr";
    const std::string cmd = "cd '" + s.dir.string() + "' && timeout -s KILL 60 '" HWCOMM_BINARY "' " + args + " >'" +
                            out.string() + "' 2>'" + err.string() + "' </dev/null";
    const int status = std::system(cmd.c_str());
    Result r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;  // 137: killed at the deadline
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
}

void expect_refusal(const Result& r, const std::string& needle) {
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
    EXPECT_EQ(r.err.rfind("hwcomm: error: ", 0), 0u) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "more than one line: " << r.err;
    EXPECT_EQ(r.err.find("json.exception"), std::string::npos) << r.err;
}

bool valid_utf8(const std::string& s) {
    for (std::size_t i = 0; i < s.size();) {
        const auto b = static_cast<unsigned char>(s[i]);
        const std::size_t n = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
        if (n == 0 || i + n > s.size()) return false;
        for (std::size_t k = 1; k < n; ++k)
            if ((static_cast<unsigned char>(s[i + k]) >> 6) != 2) return false;
        i += n;
    }
    return true;
}

// A small results file of this machine (cpu-read, two sizes).
void make_results(const Scratch& s, const std::string& name = "r.json") {
    const Result made =
        run_hwcomm(s, "run --filter method=cpu-read --min-size 4K --max-size 8K --time-budget 0.001 -o " + name + " --force");
    ASSERT_EQ(made.code, 0) << made.err;
}

const char* kBenchmark =
    R"({"context": {"date": "2018-06-02"}, "benchmarks": [{"name": "NUMA_Memcpy_PinnedToGPU/20/0/0/manual_time",
        "iterations": 10, "real_time": 100000.0, "time_unit": "ns", "bytes": 1048576.0}]})";

}  // namespace

TEST(CliInputClasses, NamedPipesAndDevicesAreRefusedNotWaitedOn) {
    Scratch s("classes-fifo");
    ASSERT_EQ(::mkfifo((s / "fifo.json").c_str(), 0600), 0);
    make_results(s);
    // Each of these blocked forever or read without end before the guarded input path.
    expect_refusal(run_bounded(s, "import fifo.json -o i.json"), "fifo.json: not a regular file");
    expect_refusal(run_bounded(s, "import /dev/zero -o i.json"), "/dev/zero: not a regular file");
    expect_refusal(run_bounded(s, "summary r.json --targets fifo.json"), "fifo.json: not a regular file");
    expect_refusal(run_bounded(s, "topo --input '" + fixture("hwloc/power8gpudistances.xml") + "' --nvml-replay fifo.json"),
                   "fifo.json: not a regular file");
    expect_refusal(run_bounded(s, "run --resume fifo.json"), "fifo.json: not a regular file");
    EXPECT_FALSE(std::filesystem::exists(s / "i.json"));
}

TEST(CliInputClasses, DeeplyNestedGoogleBenchmarkContextIsRefusedNotACrash) {
    Scratch s("classes-deep");
    // The context used to be copied into meta.sources and overflowed the stack when written.
    std::ofstream(s / "deep.json") << "{\"context\": " << std::string(100000, '[') << std::string(100000, ']')
                                   << ", \"benchmarks\": []}";
    expect_refusal(run_hwcomm(s, "import deep.json -o i.json"), "deep.json: nests JSON deeper than 128 levels");
    EXPECT_FALSE(std::filesystem::exists(s / "i.json"));
}

TEST(CliInputClasses, WrongJsonTypesAreBadInputNotInternalErrors) {
    Scratch s("classes-types");
    make_results(s);
    const auto mutate = [&](const std::string& name, const std::function<void(nlohmann::json&)>& edit) {
        auto doc = read_json(s / "r.json");
        edit(doc);
        std::ofstream(s / name) << doc.dump();
    };
    mutate("meta.json", [](nlohmann::json& d) { d["meta"] = nlohmann::json::array(); });
    mutate("host.json", [](nlohmann::json& d) { d["meta"]["host"] = 3; });
    mutate("kind.json", [](nlohmann::json& d) { d["topology"]["vertices"][0]["kind"] = 3; });
    // get<uint64_t> read -1 as 2^64-1 and compare went on to flag the record (exit 1).
    mutate("negative.json", [](nlohmann::json& d) { d["records"][0]["points"][0]["bytes"] = -1; });
    mutate("huge.json", [](nlohmann::json& d) { d["records"][0]["points"][0]["bytes"] = 1e30; });
    expect_refusal(run_hwcomm(s, "model fit meta.json -o m.json"), "meta.json: meta must be an object, not array");
    expect_refusal(run_hwcomm(s, "model check meta.json"), "meta must be an object");
    expect_refusal(run_hwcomm(s, "export host.json"), "host.json: meta.host must be a string, not number");
    expect_refusal(run_hwcomm(s, "compare kind.json r.json"),
                   "kind.json: malformed topology: type must be string, but is number");
    expect_refusal(run_hwcomm(s, "compare negative.json r.json"),
                   "negative.json: bytes must be a non-negative integer, not -1");
    expect_refusal(run_hwcomm(s, "summary huge.json"), "huge.json: bytes must be a non-negative integer, not 1e+30");
    // Google Benchmark fields of the wrong type: the entry is dropped and said why.
    nlohmann::json gb = nlohmann::json::parse(kBenchmark);
    gb["benchmarks"][0]["time_unit"] = 3;
    std::ofstream(s / "unit.json") << gb.dump();
    expect_refusal(run_hwcomm(s, "import unit.json -o i.json"), "unit.json: NUMA_Memcpy_PinnedToGPU/20/0/0/manual_time: "
                                                                "'time_unit' is a number");
    gb["benchmarks"].push_back(nlohmann::json::parse(kBenchmark)["benchmarks"][0]);
    gb["benchmarks"][1]["name"] = "NUMA_Memcpy_PinnedToGPU/21/0/0/manual_time";
    std::ofstream(s / "mixed.json") << gb.dump();
    const Result mixed = run_hwcomm(s, "import mixed.json -o i.json");
    EXPECT_EQ(mixed.code, 0) << mixed.err;
    EXPECT_NE(mixed.out.find("1 entries dropped"), std::string::npos) << mixed.out;
}

TEST(CliInputClasses, NoOutputIsReplacedUnasked) {
    Scratch s("classes-overwrite");
    make_results(s);
    const std::string xml = fixture("hwloc/power8gpudistances.xml");
    for (const std::string& command : {std::string("report r.json -o kept.out"), "topo --input '" + xml + "' --svg kept.out",
                                       std::string("topo --record-nvml kept.out")}) {
        std::ofstream(s / "kept.out") << "mine";
        expect_refusal(run_hwcomm(s, command), "kept.out exists; use --force to overwrite it");
        EXPECT_EQ(slurp(s / "kept.out"), "mine") << command;
    }
    EXPECT_EQ(run_hwcomm(s, "report r.json -o kept.out --force").code, 0);
    EXPECT_NE(slurp(s / "kept.out").find("<!DOCTYPE html>"), std::string::npos);
}

TEST(CliInputClasses, OptionValuesOutsideTheirRangeAreRefused) {
    Scratch s("classes-options");
    make_results(s);
    // --at -1 printed "GB/s at 16 EiB" and exited 0.
    expect_refusal(run_hwcomm(s, "summary r.json --matrix cpu-read --at -1"), "--at: '-1' is not a size");
    expect_refusal(run_hwcomm(s, "summary r.json --matrix cpu-read --at 0"), "--at: '0' is 0 bytes");
    expect_refusal(run_hwcomm(s, "analyze r.json --min-size -1"), "--min-size: '-1' is not a size");
    expect_refusal(run_hwcomm(s, "predict r.json --method cpu-read --src numa0 --dst numa0 --size 0"), "--size");
    // The option's own maximum plans in one pass per round (it took 27 s).
    const Result plan = run_hwcomm(s, "run --plan --nodes 1048576");
    EXPECT_EQ(plan.code, 0) << plan.err;
    EXPECT_EQ(plan.out.rfind("cluster plan: 1048576 node(s), schedule ring+random", 0), 0u) << plan.out.substr(0, 200);
    EXPECT_LT(plan.out.size(), 1u << 20);  // each round's first pairs, not 75 MB of them
}

TEST(CliInputClasses, TargetsOfAnotherMachineFailEvenWithNoDataAtAll) {
    Scratch s("classes-targets");
    make_results(s);  // this machine: no GPU
    const Result r = run_hwcomm(s, "summary r.json --targets '" + fixture("../../docs/targets-h200x2.json") + "'");
    EXPECT_EQ(r.code, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("MACHINE DIFFERS"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("NO DATA for any target"), std::string::npos) << r.out;
}

TEST(CliInputClasses, Latin1HwlocStringsReachNoOutput) {
    Scratch s("classes-latin1");
    std::string xml = slurp(fixture("hwloc/power8gpudistances.xml"));
    for (std::size_t at = 0; (at = xml.find("POWER8NVL,", at)) != std::string::npos; at += 12)
        xml.replace(at, 10, "POWER8NVL \xE9,");
    std::ofstream(s / "latin1.xml") << xml;
    for (const std::string format : {"", "--json", "--dot", "--matrix", "--svg t.svg"}) {
        const Result r = run_hwcomm(s, "topo --input latin1.xml " + format);
        EXPECT_EQ(r.code, 0) << format << ": " << r.err;
        EXPECT_TRUE(valid_utf8(r.out)) << format;
    }
    EXPECT_TRUE(valid_utf8(slurp(s / "t.svg")));
    EXPECT_NE(slurp(s / "t.svg").find("POWER8NVL \xEF\xBF\xBD"), std::string::npos);
    std::ofstream(s / "gb.json") << kBenchmark;
    const Result imported = run_hwcomm(s, "import gb.json --topology latin1.xml -o i.json");
    EXPECT_EQ(imported.code, 0) << imported.err;
    EXPECT_TRUE(valid_utf8(slurp(s / "i.json")));
}

TEST(CliInputClasses, ErrorsNameTheFileOnceInWords) {
    Scratch s("classes-messages");
    std::ofstream(s / "bad.json") << "{\"schema\": ";
    for (const std::string& command : {std::string("summary"), std::string("analyze"), std::string("export"),
                                      std::string("model check")}) {
        const Result r = run_hwcomm(s, command + " bad.json");
        expect_refusal(r, "bad.json is not valid JSON (line 1, column 12: ");
        EXPECT_EQ(r.err.find("bad.json"), r.err.rfind("bad.json")) << "the path twice: " << r.err;
    }
    const Result twice = run_hwcomm(s, "compare bad.json bad.json");
    expect_refusal(twice, "compare: bad.json is not valid JSON");
}
