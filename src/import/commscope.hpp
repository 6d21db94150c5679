#pragma once
// Comm|Scope / Google Benchmark JSON -> a hwcomm results file (provenance
// "imported"). Each size's curve value is the `_mean` aggregate of its
// repetitions (what the study plotted); the median and stddev aggregates and
// the repetitions themselves are kept in the point's statistics. Files are
// read through the guarded input path (core/input_file.hpp); unreadable,
// empty or malformed files are skipped and counted with the reason; entries
// with names outside the table (benchmark_names.hpp) are counted by name,
// entries with fields of the wrong type listed as problems. Nothing throws
// for bad input files.
#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/results.hpp"

namespace hwcomm::import {

struct ImportReport {
    std::size_t files_read = 0;                                  // parsed and used
    std::vector<std::pair<std::string, std::string>> skipped;   // file, reason
    std::map<std::string, std::size_t> unknown;                  // base name -> entries
    std::vector<std::pair<std::string, std::string>> problems;  // file, entry dropped and why
    std::size_t entries = 0;                                     // benchmark entries used
    std::vector<std::string> notes;                              // assumptions made (devices, units)
};

class Importer {
public:
    // One Google Benchmark document; `label` names it in provenance and reports.
    void add_document(const nlohmann::json& doc, const std::string& label);
    // Reads one file; a missing, empty, malformed or hostile file (a pipe, a
    // device, over the size cap, nested too deep) is skipped and counted.
    void add_file(const std::string& path);
    // The results file: one record per benchmark and devices, points sorted by size.
    ResultsFile finish(const nlohmann::json& topology = nlohmann::json::object());
    const ImportReport& report() const { return report_; }

private:
    struct SizeData {
        std::vector<double> reps_s;
        double mean_s = -1, median_s = -1, stddev_s = -1;
        std::size_t repetitions = 0;  // "repetitions" field of aggregates, when given
        std::string error;
        double bytes_per_rep = 0;
    };
    struct Curve {
        Record record;
        std::map<std::uint64_t, SizeData> sizes;
        std::vector<std::string> files;
    };
    std::map<std::string, Curve> curves_;
    ImportReport report_;
    nlohmann::json contexts_ = nlohmann::json::array();
};

// "Skipped 2 files ..., unknown names ..." for the command's output.
std::string format_report(const ImportReport& report);

// Why nothing was imported, in one line that names the files ("a.json: empty
// file; b.json: is not valid JSON (...)"), for the command's error.
std::string why_nothing_imported(const ImportReport& report);

}  // namespace hwcomm::import
