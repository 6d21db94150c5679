#include "core/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <memory>

#ifdef HWCOMM_HAVE_ZLIB
#include <zlib.h>
#endif

#include "core/error.hpp"

namespace hwcomm {

namespace {

class Fd {
public:
    explicit Fd(int fd) : fd_(fd) {}
    ~Fd() {
        if (fd_ >= 0) ::close(fd_);
    }
    Fd(Fd&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    Fd& operator=(Fd&&) = delete;
    int get() const { return fd_; }

private:
    int fd_;
};

[[noreturn]] void refuse(const std::string& prefix, const std::string& reason) { throw InputError(prefix + reason, reason); }

std::string mib(std::size_t bytes) {
    return bytes % (1u << 20) == 0 ? std::to_string(bytes >> 20) + " MiB" : std::to_string(bytes) + " bytes";
}

// Opens `path` for reading when it is a regular file; throws InputError(prefix + reason) otherwise.
Fd open_regular(const std::string& path, const std::string& prefix, struct stat& st) {
    // O_NONBLOCK: opening a named pipe with no writer would otherwise wait forever.
    Fd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
    if (fd.get() < 0) refuse(prefix, errno_text());
    if (::fstat(fd.get(), &st) != 0) refuse(prefix, errno_text());
    if (S_ISDIR(st.st_mode)) refuse(prefix, "is a directory");
    if (!S_ISREG(st.st_mode)) refuse(prefix, "not a regular file (a pipe, socket or device)");
    return fd;
}

#ifdef HWCOMM_HAVE_ZLIB
constexpr std::size_t kMaxGzipRatio = 100;
constexpr std::size_t kGzipRatioFloor = std::size_t{16} << 20;  // small files may compress better

// Inflates gzip members (concatenated ones too, as gunzip does), stopping
// with an error as soon as the output would pass max_bytes, or, past 16 MiB,
// 100 times the compressed size: a 3 MiB file of zeros inflates to 3 GiB.
std::string inflate_gzip(const std::string& packed, std::size_t max_bytes, const std::string& prefix) {
    z_stream z{};
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) refuse(prefix, "zlib cannot start");
    const std::unique_ptr<z_stream, int (*)(z_stream*)> end(&z, inflateEnd);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(packed.data()));
    std::size_t left = packed.size();
    std::string out;
    char buf[1 << 16];
    for (;;) {
        const auto chunk = static_cast<uInt>(std::min<std::size_t>(left, 1u << 30));
        z.avail_in = chunk;
        const Bytef* before = z.next_in;
        z.next_out = reinterpret_cast<Bytef*>(buf);
        z.avail_out = sizeof buf;
        const int rc = inflate(&z, Z_NO_FLUSH);
        left -= static_cast<std::size_t>(z.next_in - before);
        const std::size_t produced = sizeof buf - z.avail_out;
        if (out.size() + produced > max_bytes)
            refuse(prefix, "gzip content inflates to more than " + mib(max_bytes));
        // Results files compress about 10:1; far past that is a bomb, refused
        // long before the cap (3 GiB of zeros are 3 MiB of gzip).
        if (out.size() + produced > kGzipRatioFloor && out.size() + produced > kMaxGzipRatio * packed.size())
            refuse(prefix, "gzip content inflates to more than " + std::to_string(kMaxGzipRatio) +
                               " times its size (not a file hwcomm wrote)");
        out.append(buf, produced);
        if (rc == Z_STREAM_END) {
            // Another member may follow; trailing zero padding ends the file.
            if (left == 0 || static_cast<unsigned char>(*z.next_in) != 0x1f) return out;
            if (inflateReset(&z) != Z_OK) refuse(prefix, "corrupt gzip content");
            continue;
        }
        if (rc == Z_BUF_ERROR && left == 0) refuse(prefix, "gzip content ends early (truncated file)");
        if (produced == 0 && z.next_in == before) refuse(prefix, "corrupt gzip content");
        if (rc != Z_OK && rc != Z_BUF_ERROR)
            refuse(prefix, "corrupt gzip content" + (z.msg ? std::string(" (") + z.msg + ")" : ""));
    }
}
#endif

}  // namespace

bool has_gzip_magic(std::string_view bytes) {
    return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
           static_cast<unsigned char>(bytes[1]) == 0x8b;
}

bool is_gzip_file(const std::string& path) {
    try {
        struct stat st {};
        const Fd fd = open_regular(path, "", st);
        char magic[2] = {};
        return ::read(fd.get(), magic, 2) == 2 && has_gzip_magic(std::string_view(magic, 2));
    } catch (const InputError&) {
        return false;
    }
}

std::string read_regular_input_file(const std::string& path, const std::string& what, std::size_t max_bytes,
                                    Gzip gzip) {
    if (path.empty()) throw InputError("cannot read " + what + ": empty path", "empty path");
    const std::string prefix = "cannot read " + what + " " + path + ": ";
    struct stat st {};
    const Fd fd = open_regular(path, prefix, st);
    if (static_cast<std::size_t>(st.st_size) > max_bytes) refuse(prefix, "larger than " + mib(max_bytes));
    std::string text(static_cast<std::size_t>(st.st_size), '\0');
    std::size_t got = 0;
    while (got < text.size()) {
        const ssize_t n = ::read(fd.get(), text.data() + got, text.size() - got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) refuse(prefix, errno_text());
        if (n == 0) break;  // the file shrank while we read it
        got += static_cast<std::size_t>(n);
    }
    text.resize(got);
    if (gzip == Gzip::AsIs || !has_gzip_magic(text)) return text;
#ifdef HWCOMM_HAVE_ZLIB
    return inflate_gzip(text, max_bytes, prefix);
#else
    refuse(prefix, "gzip-compressed and this build has no zlib; gunzip it first");
#endif
}

}  // namespace hwcomm
