// hwcomm gpumem --ncu: the theory of gpumem-stride's sectors, checked by the
// hardware's counters. ncu profiles a hidden command of ours that launches
// each stride kernel once (profiling the method itself would replay every
// warm-up and sample); its CSV report is matched to the points in launch
// order, one kernel per point.
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <map>
#include <sstream>

#include "catalog/method_names.hpp"
#include "catalog/row_json.hpp"
#include "cli/gpumem_ncu.hpp"
#include "core/error.hpp"
#include "discover/discover.hpp"
#include "io/results_file.hpp"
#include "methods/cuda/common/graph_queries.hpp"
#include "methods/cuda/gpumem/stride_once.hpp"
#include "methods/gpumem/ncu_csv.hpp"
#include "platform/child_process.hpp"

namespace hwcomm::cli {

namespace {

constexpr const char* kL1Sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
constexpr const char* kDramSectors = "dram__sectors_read.sum";

struct StrideKernelsArgs {
    int ordinal = 0;
    std::uint64_t bytes = 0;
    std::string cases;  // "4:1,4:2,16:1"
};

std::vector<cuda::gpumem::StrideCase> parse_cases(const std::string& text) {
    std::vector<cuda::gpumem::StrideCase> cases;
    std::istringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        const auto colon = item.find(':');
        char* end = nullptr;
        cuda::gpumem::StrideCase c;
        if (colon == std::string::npos) throw UsageError("--cases: \"" + item + "\" is not ELEMENT:STRIDE");
        c.element_bytes = static_cast<int>(std::strtol(item.substr(0, colon).c_str(), &end, 10));
        c.stride = std::strtoull(item.c_str() + colon + 1, &end, 10);
        if (*end != '\0' || c.stride == 0) throw UsageError("--cases: \"" + item + "\" is not ELEMENT:STRIDE");
        cases.push_back(c);
    }
    return cases;
}

std::string self_path() {
    std::string buf(4096, '\0');
    const ssize_t n = ::readlink("/proc/self/exe", buf.data(), buf.size() - 1);
    if (n <= 0) throw MeasurementError("cannot find this program's own path (/proc/self/exe)");
    buf.resize(static_cast<std::size_t>(n));
    return buf;
}

std::string find_ncu() {
    if (const char* e = std::getenv("HWCOMM_NCU"); e && *e) return e;
    if (std::string p = find_in_path("ncu"); !p.empty()) return p;
    return ::access("/usr/local/cuda/bin/ncu", X_OK) == 0 ? "/usr/local/cuda/bin/ncu" : "";
}

std::string last_line(const std::string& text) {
    std::istringstream in(text);
    std::string line, last;
    while (std::getline(in, line))
        if (!line.empty()) last = line;
    return last;
}

// The points of one record that ncu measures together: same GPU, same footprint.
struct Batch {
    std::uint64_t bytes = 0;
    std::vector<Point*> points;
    std::string cases;
};

std::map<std::uint64_t, Batch> batches_of(Record& r) {
    std::map<std::uint64_t, Batch> batches;
    for (Point& p : r.points) {
        if (p.status != "ok" || !p.axes.count("element_bytes") || !p.axes.count("stride")) continue;
        Batch& b = batches[p.bytes];
        b.bytes = p.bytes;
        b.cases += (b.cases.empty() ? "" : ",") + std::to_string(p.axes.at("element_bytes").get<int>()) + ":" +
                   std::to_string(p.axes.at("stride").get<std::uint64_t>());
        b.points.push_back(&p);
    }
    return batches;
}

// One record's points under ncu; returns what the context says of it.
nlohmann::json measure_record(Record& r, int ordinal, const std::string& ncu) {
    for (auto& [bytes, b] : batches_of(r)) {
        const TempFile report("hwcomm-ncu");
        const ChildResult child = run_child({ncu, "--csv", "--log-file", report.path(), "--metrics",
                                             std::string(kL1Sectors) + "," + kDramSectors, "--kernel-name",
                                             "regex:strided_kernel", self_path(), "__gpumem-stride-kernels",
                                             "--ordinal", std::to_string(ordinal), "--bytes", std::to_string(bytes),
                                             "--cases", b.cases});
        const std::string log = report.read();
        if (child.exit_code != 0)
            return "failed: ncu exited " + std::to_string(child.exit_code) + ": " +
                   last_line(log.empty() ? child.output : log + "\n" + child.output);
        const auto kernels = gpumem::parse_ncu_csv(log);
        if (kernels.size() != b.points.size())
            return "failed: ncu profiled " + std::to_string(kernels.size()) + " kernels for " +
                   std::to_string(b.points.size()) + " points";
        for (std::size_t i = 0; i < kernels.size(); ++i) {
            const auto& m = kernels[i].metrics;
            if (m.count(kL1Sectors)) b.points[i]->metrics["sectors_ncu"] = {m.at(kL1Sectors), "sectors"};
            if (m.count(kDramSectors)) b.points[i]->metrics["dram_sectors_ncu"] = {m.at(kDramSectors), "sectors"};
        }
    }
    return {{"tool", ncu},
            {"metrics", {{"sectors_ncu", kL1Sectors}, {"dram_sectors_ncu", kDramSectors}}},
            {"how", "each point's kernel launched once more, untimed, under ncu (hwcomm __gpumem-stride-kernels), "
                    "same elements and grid as the timed samples"}};
}

void print_record(const Record& r) {
    std::cout << r.method << " " << r.src << ": element stride sectors(theory) sectors(ncu) dram sectors(ncu)\n";
    for (const Point& p : r.points) {
        if (!p.metrics.count("sectors_ncu")) continue;
        std::cout << "  " << p.axes.at("element_bytes").dump() << " B x " << p.axes.at("stride").dump() << ": "
                  << p.metrics.at("sectors_theory").value << " " << p.metrics.at("sectors_ncu").value << " "
                  << (p.metrics.count("dram_sectors_ncu") ? p.metrics.at("dram_sectors_ncu").value : 0.0) << "\n";
    }
}

}  // namespace

void add_ncu_sectors(const std::string& results_path) {
    ResultsFile results = load_results_file(results_path);
    const MethodCatalog catalog = catalog_for(results.meta);
    const Graph graph = discover_machine(DiscoverOptions{});
    const std::string ncu = find_ncu();
    bool changed = false;
    for (Record& r : results.records) {
        const MethodRow* row = catalog.find(r.method);
        if (!row || row->view != MethodView::GpumemStride || r.status != "ok") continue;
        nlohmann::json said = "not measured: Nsight Compute (ncu) is not in PATH nor /usr/local/cuda/bin (HWCOMM_NCU names it)";
        const Vertex* gpu = graph.find(r.src);
        if (!gpu || cuda::cuda_ordinal(*gpu) < 0) said = "not measured: " + r.src + " is not a CUDA GPU of this machine";
        else if (!ncu.empty()) {
            try {
                said = measure_record(r, cuda::cuda_ordinal(*gpu), ncu);
            } catch (const MeasurementError& e) {
                said = std::string("failed: ") + e.what();
            }
        }
        r.context["kernel"]["ncu"] = said;
        changed = true;
        if (said.is_string()) std::cerr << "hwcomm gpumem --ncu: " << r.src << ": " << said.get<std::string>() << "\n";
        else print_record(r);
    }
    if (!changed)
        std::cerr << "hwcomm gpumem --ncu: no " << method_name::kGpumemStride << " record in " << results_path << "\n";
    else save_results(results_path, results);
}

void add_stride_kernels_command(CLI::App& app, Action& action) {
    auto args = std::make_shared<StrideKernelsArgs>();
    auto* sub = app.add_subcommand("__gpumem-stride-kernels", "gpumem-stride's kernels once each (profiled by ncu)");
    sub->group("");  // hidden: hwcomm gpumem --ncu runs it
    sub->add_option("--ordinal", args->ordinal, "CUDA device ordinal")->required();
    sub->add_option("--bytes", args->bytes, "footprint in bytes")->required();
    sub->add_option("--cases", args->cases, "ELEMENT:STRIDE,...")->required();
    sub->callback([&action, args] {
        action = [args] {
            cuda::gpumem::launch_each_stride_once(args->ordinal, args->bytes, parse_cases(args->cases));
            return 0;
        };
    });
}

}  // namespace hwcomm::cli
