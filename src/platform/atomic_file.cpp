#include "platform/atomic_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <random>
#include <utility>

#include "core/error.hpp"
#include "platform/interrupt.hpp"

namespace hwcomm {

namespace {

namespace fs = std::filesystem;

class Fd {
public:
    explicit Fd(int fd = -1) : fd_(fd) {}
    ~Fd() {
        if (fd_ >= 0) ::close(fd_);
    }
    Fd(Fd&& other) noexcept : fd_(other.release()) {}
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    Fd& operator=(Fd&&) = delete;
    int get() const { return fd_; }
    int release() { return std::exchange(fd_, -1); }

private:
    int fd_;
};

[[noreturn]] void fail(const std::string& path, const std::string& why) {
    throw UsageError("cannot write " + path + ": " + why);
}

std::string directory_of(const std::string& path) {
    const auto dir = fs::path(path).parent_path();
    return dir.empty() ? std::string(".") : dir.string();
}

std::string name_of(const std::string& path) { return fs::path(path).filename().string(); }

// Our temporary names: "<name>.tmp.<pid>.<random>", so a stale one is recognised as ours.
std::string temp_prefix(const std::string& path) { return name_of(path) + ".tmp."; }

// Removes temporaries of this output left by a process that is gone (a kill
// between link and rename); a live process's temporary is left alone.
void remove_stale_temporaries(const std::string& path) {
    const std::string dir = directory_of(path), prefix = temp_prefix(path);
    DIR* d = ::opendir(dir.c_str());
    if (!d) return;
    while (const dirent* e = ::readdir(d)) {
        const std::string name = e->d_name;
        if (!name.starts_with(prefix)) continue;
        const std::string rest = name.substr(prefix.size());
        const auto dot = rest.find('.');
        if (dot == std::string::npos || dot == 0 || rest.find_first_not_of("0123456789") != dot) continue;
        const long pid = std::stol(rest.substr(0, dot));
        if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
            ::unlinkat(::dirfd(d), name.c_str(), 0);
    }
    ::closedir(d);
}

std::string temp_name(const std::string& path) {
    std::random_device rd;
    return (fs::path(directory_of(path)) / (temp_prefix(path) + std::to_string(::getpid()) + "." +
                                            std::to_string(rd()))).string();
}

// Opens an unnamed file in the output's directory (O_TMPFILE); where the file
// system lacks it, a named one of our pattern. Mode 0666 less the umask.
Fd open_temporary(const std::string& path, std::string* named) {
    Fd fd(::open(directory_of(path).c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666));
    if (fd.get() >= 0) return fd;
    if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) fail(path, errno_text());
    *named = temp_name(path);
    Fd named_fd(::open(named->c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0666));
    if (named_fd.get() < 0) fail(path, errno_text());
    return named_fd;
}

void write_all(int fd, const std::string& path, const std::string& contents) {
    const char* p = contents.data();
    std::size_t left = contents.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, p, left);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) fail(path, errno_text());
        p += n;
        left -= static_cast<std::size_t>(n);
    }
}

void write_in_place(const std::string& path, const std::string& contents) {
    // O_NONBLOCK: a pipe nobody reads is refused (ENXIO) instead of waiting forever.
    Fd fd(::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
    if (fd.get() < 0) fail(path, errno == ENXIO ? "no process reads this pipe" : errno_text());
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0 || !(S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)))
        fail(path, "changed while it was opened");
    ::fcntl(fd.get(), F_SETFL, ::fcntl(fd.get(), F_GETFL) & ~O_NONBLOCK);
    write_all(fd.get(), path, contents);
}

void replace_atomically(const std::string& path, const std::string& contents) {
    remove_stale_temporaries(path);
    std::string named;
    Fd fd = open_temporary(path, &named);
    struct Cleanup {  // the named fallback's file goes on every failure
        std::string* name;
        ~Cleanup() {
            if (!name->empty()) ::unlink(name->c_str());
        }
    } cleanup{&named};
    write_all(fd.get(), path, contents);
    if (::fsync(fd.get()) != 0) fail(path, std::string("fsync: ") + errno_text());
    // From naming the temporary to renaming it, a signal (even a second SIGINT) waits.
    const DeferSignals defer;
    if (named.empty()) {
        named = temp_name(path);
        const std::string proc = "/proc/self/fd/" + std::to_string(fd.get());
        if (::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, named.c_str(), AT_SYMLINK_FOLLOW) != 0) {
            const int err = errno;
            named.clear();
            fail(path, errno_text(err));
        }
    }
    if (::close(fd.release()) != 0) fail(path, std::string("close: ") + errno_text());
    if (::rename(named.c_str(), path.c_str()) != 0) fail(path, errno_text());
    named.clear();
    // Make the rename durable too.
    Fd dir(::open(directory_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (dir.get() >= 0) ::fsync(dir.get());
}

OutputTarget classify(const std::string& path, const struct stat& st) {
    if (S_ISREG(st.st_mode)) return {path, OutputKind::RegularFile};
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) return {path, OutputKind::InPlace};
    if (S_ISDIR(st.st_mode)) fail(path, "is a directory");
    fail(path, "is neither a regular file nor a character device or pipe");
}

}  // namespace

void check_new_output(const std::string& path, bool force) {
    if (inspect_output(path).kind == OutputKind::RegularFile && !force)
        throw UsageError(path + " exists; use --force to overwrite it");
}

OutputTarget inspect_output(const std::string& path) {
    if (path.empty()) throw UsageError("cannot write an output with an empty name");
    if (path.back() == '/') fail(path, "names a directory");
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) {
        if (errno != ENOENT) fail(path, errno_text());
        return {path, OutputKind::Missing};
    }
    if (!S_ISLNK(st.st_mode)) return classify(path, st);
    // A link: follow it for devices and pipes (written in place, e.g. /dev/stdout);
    // replace a regular target only when it lies in the same directory.
    struct stat target {};
    if (::stat(path.c_str(), &target) != 0) fail(path, "is a symbolic link to nothing (" + errno_text() + ")");
    if (!S_ISREG(target.st_mode)) return classify(path, target);
    std::error_code ec;
    const fs::path to = fs::read_symlink(path, ec);
    if (ec || to.has_parent_path()) fail(path, "is a symbolic link out of its directory; name its target instead");
    const std::string resolved = (fs::path(directory_of(path)) / to).string();
    struct stat resolved_st {};
    if (::lstat(resolved.c_str(), &resolved_st) != 0 || !S_ISREG(resolved_st.st_mode))
        fail(path, "is a chain of symbolic links; name its target instead");
    return {resolved, OutputKind::RegularFile};
}

void write_file_atomically(const std::string& path, const std::string& contents) {
    const OutputTarget target = inspect_output(path);
    if (target.kind == OutputKind::InPlace) write_in_place(target.path, contents);
    else replace_atomically(target.path, contents);
}

bool directory_writable_for(const std::string& path, std::string* why) {
    try {
        std::string named;
        Fd probe = open_temporary(path, &named);
        if (!named.empty()) ::unlink(named.c_str());
        return true;
    } catch (const std::exception& e) {
        if (why) *why = e.what();
        return false;
    }
}

}  // namespace hwcomm
