#pragma once
// Runs another program to completion (posix_spawn, no shell), its standard
// output and error captured: how hwcomm drives Nsight Compute.
#include <string>
#include <vector>

namespace hwcomm {

struct ChildResult {
    int exit_code = -1;   // the program's exit status, or 128 + signal
    std::string output;   // standard output and error, interleaved
};

// argv[0] is the program's path (searched in PATH when it has no '/').
// Throws MeasurementError when it cannot be started.
ChildResult run_child(const std::vector<std::string>& argv);

// The path of an executable named `name` in PATH, else "".
std::string find_in_path(const std::string& name);

// A fresh empty file under $TMPDIR (or /tmp), removed when this goes out of scope.
class TempFile {
public:
    explicit TempFile(const std::string& stem);
    ~TempFile();
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
    const std::string& path() const { return path_; }
    std::string read() const;

private:
    std::string path_;
};

}  // namespace hwcomm
