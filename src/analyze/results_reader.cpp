#include "analyze/results_reader.hpp"

#include "io/results_json.hpp"

#include <zlib.h>

#include <fstream>
#include <memory>
#include <stdexcept>

namespace hwcomm::analyze {

namespace {

struct GzClose {
    void operator()(gzFile f) const { gzclose(f); }
};

}  // namespace

std::string read_maybe_gzip(const std::string& path) {
    {
        std::ifstream probe(path, std::ios::binary);
        if (!probe) throw std::runtime_error("cannot read " + path);
    }
    // gzread passes plain files through unchanged, so one path reads both.
    std::unique_ptr<std::remove_pointer_t<gzFile>, GzClose> f(gzopen(path.c_str(), "rb"));
    if (!f) throw std::runtime_error("cannot read " + path);
    std::string text;
    char buf[1 << 16];
    for (;;) {
        const int n = gzread(f.get(), buf, sizeof buf);
        if (n < 0) {
            int code = 0;
            throw std::runtime_error(path + ": corrupt compressed data (" + gzerror(f.get(), &code) + ")");
        }
        if (n == 0) break;
        text.append(buf, static_cast<std::size_t>(n));
    }
    return text;
}

ResultsFile load_results_any(const std::string& path) {
    const std::string text = read_maybe_gzip(path);
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(path + " is not JSON: " + e.what());
    }
    return results_from_json(doc);
}

}  // namespace hwcomm::analyze
