#include "io/results_file.hpp"

#include "core/input_file.hpp"
#include "core/json_parse.hpp"

#ifdef HWCOMM_HAVE_ZLIB
#include <zlib.h>
#endif

#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "catalog/row_json.hpp"
#include "io/results_json.hpp"
#include "platform/atomic_file.hpp"

namespace hwcomm {

namespace {

std::string read_gzip(const std::string& path) {
#ifndef HWCOMM_HAVE_ZLIB
    throw std::runtime_error(path + " is gzip-compressed and this build has no zlib; gunzip it first");
#else
    const std::unique_ptr<gzFile_s, int (*)(gzFile)> in(gzopen(path.c_str(), "rb"), gzclose);
    if (!in) throw std::runtime_error("cannot read " + path);
    std::string out;
    char buf[1 << 16];
    int n = 0;
    while ((n = gzread(in.get(), buf, sizeof buf)) > 0) out.append(buf, static_cast<std::size_t>(n));
    if (n < 0) throw std::runtime_error(path + " is not a readable gzip file");
    return out;
#endif
}

}  // namespace

bool is_gzip_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    unsigned char magic[2] = {};
    return in.read(reinterpret_cast<char*>(magic), 2) && magic[0] == 0x1f && magic[1] == 0x8b;
}

ResultsFile load_results_file(const std::string& path) {
    // A regular file only (a named pipe must not block us), then the JSON with a
    // nesting limit (deeply nested input would exhaust the stack).
    std::string text = read_regular_input_file(path, "results file", kMaxJsonFileBytes);
    if (text.size() >= 2 && static_cast<unsigned char>(text[0]) == 0x1f && static_cast<unsigned char>(text[1]) == 0x8b)
        text = read_gzip(path);
    const nlohmann::json doc = parse_json_text(text, path);
    try {
        ResultsFile file = results_from_json(doc);
        (void)catalog_for(file.meta);  // a row of meta.methods every reader can take
        return file;
    } catch (const std::exception& e) {
        throw std::runtime_error(path + ": " + e.what());
    }
}

void save_results(const std::string& path, const ResultsFile& file) {
    write_file_atomically(path, results_to_json(file).dump(1) + "\n");
}

}  // namespace hwcomm
