#include "methods/disk/page_cache.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <stdexcept>
#include <vector>

#include "core/error.hpp"

namespace hwcomm {

CacheDropPolicy cache_drop_policy_from(const std::string& text) {
    if (text == "file" || text.empty()) return CacheDropPolicy::File;
    if (text == "system") return CacheDropPolicy::System;
    if (text == "auto") return ::geteuid() == 0 ? CacheDropPolicy::System : CacheDropPolicy::File;
    throw std::invalid_argument("cache drop '" + text + "': expected auto, file or system");
}

const char* to_string(CacheDropPolicy policy) { return policy == CacheDropPolicy::System ? "system" : "file"; }

std::string CacheDrop::way() const {
    if (fadvised && drop_caches) return "posix_fadvise+drop_caches";
    if (fadvised) return "posix_fadvise";
    if (drop_caches) return "drop_caches";
    return "none";
}

std::size_t cached_bytes(int fd, std::size_t bytes) {
    if (bytes == 0) return 0;
    void* map = ::mmap(nullptr, bytes, PROT_READ, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) throw MeasurementError(std::string("mmap of the test file for mincore: ") + errno_text());
    const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    std::vector<unsigned char> resident((bytes + page - 1) / page);
    const int rc = ::mincore(map, bytes, resident.data());
    const int err = errno;
    ::munmap(map, bytes);
    if (rc != 0) throw MeasurementError(std::string("mincore on the test file: ") + errno_text(err));
    std::size_t pages = 0;
    for (unsigned char r : resident) pages += r & 1u;
    return std::min(bytes, pages * page);
}

CacheDrop drop_from_page_cache(int fd, std::size_t bytes, CacheDropPolicy policy) {
    CacheDrop out;
    // Dirty pages cannot be dropped: write them back first (the file is
    // written once, so this costs nothing after the first sample).
    if (::fsync(fd) != 0) out.error = std::string("fsync: ") + errno_text();
    else if (const int rc = ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED); rc != 0)
        out.error = std::string("posix_fadvise(DONTNEED): ") + errno_text(rc);
    else out.fadvised = true;
    if (policy == CacheDropPolicy::System) {
        const int proc = ::open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
        // "1": the page cache only; dentries and inodes stay (the file is open anyway).
        if (proc >= 0 && ::write(proc, "1", 1) == 1) out.drop_caches = true;
        else out.error += std::string(out.error.empty() ? "" : "; ") + "/proc/sys/vm/drop_caches: " + errno_text();
        if (proc >= 0) ::close(proc);
    }
    out.cached_bytes = cached_bytes(fd, bytes);
    return out;
}

}  // namespace hwcomm
