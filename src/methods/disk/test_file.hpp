#pragma once
// The file disk-read reads: written once per record into the scratch
// directory, never visible there. It is made with O_TMPFILE (an inode with no
// name), or, on a filesystem without it, created and unlinked at once; either
// way the kernel frees it when the descriptor closes, at the end of the
// record, after an interrupt, or when the process dies by a signal.
#include <cstddef>
#include <cstdint>
#include <string>

namespace hwcomm {

// "" when `dir` can take the test file (exists, a directory, on a writable
// filesystem, writable by this user), else why not, naming the directory.
std::string scratch_problem(const std::string& dir);

// Bytes the filesystem holding `dir` still has for this user (0 when unknown).
std::uint64_t free_bytes(const std::string& dir);

class TestFile {
public:
    // Writes `bytes` of the pattern of `seed` (methods/cpu/pattern.hpp, word
    // i at byte 8i) and fsyncs. Throws MeasurementError.
    TestFile(const std::string& dir, std::size_t bytes, std::uint64_t seed);
    ~TestFile();
    TestFile(const TestFile&) = delete;
    TestFile& operator=(const TestFile&) = delete;

    int fd() const { return fd_; }
    std::size_t size() const { return bytes_; }
    // "O_TMPFILE" or "created and unlinked at once".
    const std::string& how() const { return how_; }

private:
    int fd_ = -1;
    std::size_t bytes_ = 0;
    std::string how_;
};

}  // namespace hwcomm
