#pragma once
// Runs the hwcomm binary (HWCOMM_BINARY) in a scratch directory and captures
// its exit code, stdout and stderr.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

namespace hwcomm::test {

namespace fs = std::filesystem;

inline std::string slurp(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

struct Scratch {
    fs::path dir;
    explicit Scratch(const std::string& name) {
        dir = fs::temp_directory_path() / ("hwcomm-cli-" + name + "-" + std::to_string(::getpid()));
        fs::remove_all(dir);
        fs::create_directories(dir);
    }
    ~Scratch() { fs::remove_all(dir); }
    fs::path operator/(const std::string& f) const { return dir / f; }
};

struct Result {
    int code = -1;
    std::string out, err;
};

inline Result run_hwcomm(const Scratch& s, const std::string& args) {
    const auto out = s / ".stdout", err = s / ".stderr";
    const std::string cmd = "cd '" + s.dir.string() + "' && '" HWCOMM_BINARY "' " + args + " >'" + out.string() +
                            "' 2>'" + err.string() + "' </dev/null";
    const int status = std::system(cmd.c_str());
    Result r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(out);
    r.err = slurp(err);
    fs::remove(out);
    fs::remove(err);
    return r;
}

inline nlohmann::json read_json(const fs::path& p) { return nlohmann::json::parse(slurp(p)); }

// Whether this hwcomm has the CUDA methods: plans and transfer sets of GPU
// methods need them (CI's sanitizer build is configured without CUDA).
inline bool built_with_cuda(const Scratch& s) {
    return run_hwcomm(s, "--version").out.find("CUDA:       yes") != std::string::npos;
}

}  // namespace hwcomm::test
