#include "platform/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <vector>

namespace hwcomm {

namespace {

std::string directory_of(const std::string& path) {
    std::filesystem::path p(path);
    auto dir = p.parent_path();
    return dir.empty() ? std::string(".") : dir.string();
}

// A temporary file next to `path`, removed in the destructor unless released.
class TempFile {
public:
    explicit TempFile(const std::string& path) {
        std::string pattern = path + ".tmp.XXXXXX";
        std::vector<char> buf(pattern.begin(), pattern.end());
        buf.push_back('\0');
        fd_ = mkstemp(buf.data());
        if (fd_ < 0) throw std::runtime_error("cannot create a temporary file next to " + path + ": " + std::strerror(errno));
        name_ = buf.data();
    }
    ~TempFile() {
        if (fd_ >= 0) ::close(fd_);
        if (!name_.empty()) ::unlink(name_.c_str());
    }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;

    int fd() const { return fd_; }
    const std::string& name() const { return name_; }
    void close_checked() {
        int fd = fd_;
        fd_ = -1;
        if (::close(fd) != 0) throw std::runtime_error("cannot close " + name_ + ": " + std::strerror(errno));
    }
    void keep() { name_.clear(); }

private:
    int fd_ = -1;
    std::string name_;
};

}  // namespace

void write_file_atomically(const std::string& path, const std::string& contents) {
    TempFile tmp(path);
    const char* p = contents.data();
    std::size_t left = contents.size();
    while (left > 0) {
        ssize_t n = ::write(tmp.fd(), p, left);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw std::runtime_error("cannot write " + tmp.name() + ": " + std::strerror(errno));
        }
        p += n;
        left -= static_cast<std::size_t>(n);
    }
    // mkstemp creates 0600; results files are ordinary user files.
    ::fchmod(tmp.fd(), 0644);
    if (::fsync(tmp.fd()) != 0) throw std::runtime_error("cannot fsync " + tmp.name() + ": " + std::strerror(errno));
    tmp.close_checked();
    if (::rename(tmp.name().c_str(), path.c_str()) != 0)
        throw std::runtime_error("cannot rename " + tmp.name() + " to " + path + ": " + std::strerror(errno));
    tmp.keep();
    // Make the rename durable too.
    int dfd = ::open(directory_of(path).c_str(), O_RDONLY | O_DIRECTORY);
    if (dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
}

bool directory_writable_for(const std::string& path, std::string* why) {
    try {
        TempFile probe(path);
        return true;
    } catch (const std::exception& e) {
        if (why) *why = e.what();
        return false;
    }
}

}  // namespace hwcomm
