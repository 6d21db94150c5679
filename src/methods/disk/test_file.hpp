#pragma once
// The file disk-read reads: written once per record into the scratch
// directory, never visible there. It is made with O_TMPFILE (an inode with no
// name), or, on a filesystem without it, created and unlinked at once; either
// way the kernel frees it when the descriptor closes, at the end of the
// record, after an interrupt, or when the process dies by a signal.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
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
    // i at byte 8i) and fsyncs. `free_before`: free_bytes(dir) as the caller
    // found it before writing, when it sized the file (kept, not measured
    // here; 0: not known). Throws MeasurementError.
    TestFile(const std::string& dir, std::size_t bytes, std::uint64_t seed, std::uint64_t free_before = 0);
    ~TestFile();
    TestFile(const TestFile&) = delete;
    TestFile& operator=(const TestFile&) = delete;

    int fd() const { return fd_; }
    std::size_t size() const { return bytes_; }
    // "O_TMPFILE" or "created and unlinked at once".
    const std::string& how() const { return how_; }
    // The free space of dir's filesystem before this file was written.
    std::uint64_t free_before() const { return free_before_; }

private:
    int fd_ = -1;
    std::size_t bytes_ = 0;
    std::uint64_t free_before_ = 0;
    std::string how_;
};

// The last test file written, kept for the next session that wants the same
// one: disk-read's three io modes of a disk and NUMA node read one file
// (writing and fsyncing 1 GiB took 1-1.7 s per record on the GPU machines).
// A method holds one; its sessions are prepared one at a time. The file is
// freed when another is wanted or the method goes (the end of the run).
class TestFileCache {
public:
    // The kept file when `dir` and `wanted` (the size asked for, before any
    // clamp to the free space) match; else the kept one released, then make().
    // `reused` says which.
    std::shared_ptr<TestFile> get(const std::string& dir, std::uint64_t wanted,
                                  const std::function<std::shared_ptr<TestFile>()>& make, bool& reused);

private:
    std::string dir_;
    std::uint64_t wanted_ = 0;
    std::shared_ptr<TestFile> file_;
};

}  // namespace hwcomm
