#include "methods/disk/test_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "core/error.hpp"
#include "methods/cpu/pattern.hpp"

namespace hwcomm {

namespace {

// A file with no name in `dir`; -1 (errno set) when the filesystem cannot.
int open_unnamed(const std::string& dir, std::string& how) {
    int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0) {
        how = "O_TMPFILE";
        return fd;
    }
    if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) return -1;
    std::string name = dir + "/.hwcomm-disk-read-XXXXXX";
    fd = ::mkostemp(name.data(), O_CLOEXEC);
    if (fd < 0) return -1;
    ::unlink(name.c_str());  // the name lives for microseconds; the inode until close
    how = "created and unlinked at once";
    return fd;
}

}  // namespace

std::string scratch_problem(const std::string& dir) {
    struct stat st {};
    if (::stat(dir.c_str(), &st) != 0) return "scratch directory " + dir + ": " + errno_text();
    if (!S_ISDIR(st.st_mode)) return "scratch directory " + dir + ": not a directory";
    struct statvfs vfs {};
    if (::statvfs(dir.c_str(), &vfs) == 0 && (vfs.f_flag & ST_RDONLY))
        return "scratch directory " + dir + ": read-only filesystem";
    // The real test (root passes access() whatever the mode bits): make an
    // unnamed file there and close it at once.
    std::string how;
    const int fd = open_unnamed(dir, how);
    if (fd < 0) return "scratch directory " + dir + ": cannot create a file there: " + errno_text();
    ::close(fd);
    return {};
}

std::uint64_t free_bytes(const std::string& dir) {
    struct statvfs vfs {};
    if (::statvfs(dir.c_str(), &vfs) != 0) return 0;
    return static_cast<std::uint64_t>(vfs.f_bavail) * vfs.f_frsize;
}

TestFile::TestFile(const std::string& dir, std::size_t bytes, std::uint64_t seed, std::uint64_t free_before)
    : bytes_(bytes), free_before_(free_before) {
    fd_ = open_unnamed(dir, how_);
    if (fd_ < 0) throw MeasurementError("cannot create the test file in " + dir + ": " + errno_text());
    // Chunks of the one pattern: word i of the file is pattern_word(mask, i).
    constexpr std::size_t kChunk = 8u << 20;
    std::vector<std::uint64_t> chunk(kChunk / 8);
    const std::uint64_t mask = pattern_mask(seed);
    for (std::size_t off = 0; off < bytes; off += kChunk) {
        const std::size_t n = std::min(kChunk, bytes - off);
        for (std::size_t w = 0; w < (n + 7) / 8; ++w) chunk[w] = pattern_word(mask, off / 8 + w);
        const auto* from = reinterpret_cast<const char*>(chunk.data());
        for (std::size_t done = 0; done < n;) {  // a short write goes on where it stopped
            const ssize_t wrote = ::pwrite(fd_, from + done, n - done, static_cast<off_t>(off + done));
            if (wrote < 0 && errno == EINTR) continue;
            if (wrote <= 0) {
                const std::string why = wrote < 0 ? errno_text() : "nothing written";
                ::close(fd_);
                throw MeasurementError("writing the test file in " + dir + ": " + why);
            }
            done += static_cast<std::size_t>(wrote);
        }
    }
    if (::fsync(fd_) != 0) {
        const std::string why = errno_text();
        ::close(fd_);
        throw MeasurementError("fsync of the test file in " + dir + ": " + why);
    }
}

TestFile::~TestFile() {
    if (fd_ >= 0) ::close(fd_);
}

std::shared_ptr<TestFile> TestFileCache::get(const std::string& dir, std::uint64_t wanted,
                                             const std::function<std::shared_ptr<TestFile>()>& make, bool& reused) {
    reused = file_ && dir == dir_ && wanted == wanted_;
    if (reused) return file_;
    file_.reset();  // its space back before the next file is sized and written
    file_ = make();
    dir_ = dir;
    wanted_ = wanted;
    return file_;
}

}  // namespace hwcomm
