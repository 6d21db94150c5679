#include "core/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/error.hpp"

namespace hwcomm {

namespace {

class Fd {
public:
    explicit Fd(int fd) : fd_(fd) {}
    ~Fd() {
        if (fd_ >= 0) ::close(fd_);
    }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    int get() const { return fd_; }

private:
    int fd_;
};

}  // namespace

std::string read_regular_input_file(const std::string& path, const std::string& what, std::size_t max_bytes) {
    if (path.empty()) throw UsageError("cannot read " + what + ": empty path");
    const std::string prefix = "cannot read " + what + " " + path + ": ";
    // O_NONBLOCK: opening a named pipe with no writer would otherwise wait forever.
    Fd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
    if (fd.get() < 0) throw UsageError(prefix + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) throw UsageError(prefix + std::strerror(errno));
    if (S_ISDIR(st.st_mode)) throw UsageError(prefix + "is a directory");
    if (!S_ISREG(st.st_mode)) throw UsageError(prefix + "not a regular file (a pipe, socket or device)");
    if (static_cast<std::size_t>(st.st_size) > max_bytes)
        throw UsageError(prefix + "larger than " + std::to_string(max_bytes >> 20) + " MiB");
    std::string text(static_cast<std::size_t>(st.st_size), '\0');
    std::size_t got = 0;
    while (got < text.size()) {
        const ssize_t n = ::read(fd.get(), text.data() + got, text.size() - got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw UsageError(prefix + std::strerror(errno));
        if (n == 0) break;  // the file shrank while we read it
        got += static_cast<std::size_t>(n);
    }
    text.resize(got);
    return text;
}

}  // namespace hwcomm
